#pragma once
// Named double-precision arrays to and from HDF5: the output of lqcd distill (correlator matrices,
// principal correlators, Laplacian eigenvalues and eigenvectors). Dataset names may contain groups
// ("distillation/C"), made as needed; files are written atomically (io/hdf5_support.hpp).

#include <cstdint>
#include <functional>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace lqcd::io {

struct Hdf5Dataset {
  std::string name;                   // path inside the file, e.g. "distillation/C"
  std::vector<std::uint64_t> shape;   // row-major; the product is values.size()
  std::vector<double> values;
  std::map<std::string, std::string> string_attributes;
  std::map<std::string, double> number_attributes;
};

struct Hdf5Datasets {
  std::vector<Hdf5Dataset> datasets;
  std::map<std::string, std::string> string_attributes;  // of the root group
  std::map<std::string, double> number_attributes;
};

void write_datasets_hdf5(const std::filesystem::path& path, const Hdf5Datasets& file);

// The same with the datasets made one at a time by dataset(k), k = 0..count-1, after file's own (so
// that large data are never all in memory at once).
void write_datasets_hdf5(const std::filesystem::path& path, const Hdf5Datasets& file, std::size_t count,
                         const std::function<Hdf5Dataset(std::size_t)>& dataset);

// One dataset with its attributes (those that are single numbers or strings; others are skipped);
// throws lqcd::Error naming the file and the dataset if it is missing or unreadable.
Hdf5Dataset read_dataset_hdf5(const std::filesystem::path& path, const std::string& name);

// The root group's attributes (single numbers and strings) as an Hdf5Datasets without datasets.
Hdf5Datasets read_root_attributes_hdf5(const std::filesystem::path& path);

}  // namespace lqcd::io
