#pragma once
// Named double-precision arrays to and from HDF5: the output of lqcd distill (correlator matrices,
// principal correlators, Laplacian eigenvalues and eigenvectors). Dataset names may contain groups
// ("distillation/C"), made as needed; files are written atomically (io/hdf5_support.hpp).

#include <cstdint>
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

// One dataset with its attributes; throws lqcd::Error naming the file and the dataset if it is missing.
Hdf5Dataset read_dataset_hdf5(const std::filesystem::path& path, const std::string& name);

}  // namespace lqcd::io
