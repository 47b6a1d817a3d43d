#pragma once
// Correlators to HDF5: one dataset per (name, momentum), shape [T][2] (real, imaginary part) of
// C(t) for t = 0..T-1 relative to the source time slice, under /correlators/<name>/p<px>_<py>_<pz>;
// run parameters as string/double attributes of the root group. Written atomically (a temporary
// file renamed onto the final name).

#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "math/complex.hpp"

namespace lqcd::io {

struct CorrelatorDataset {
  std::string name;              // e.g. "g5_g5"
  std::array<int, 3> momentum{};  // in units of 2 pi / L
  std::vector<Complex<double>> values;
};

struct CorrelatorFile {
  std::vector<CorrelatorDataset> datasets;
  std::map<std::string, std::string> string_attributes;
  std::map<std::string, double> number_attributes;
};

void write_correlators_hdf5(const std::filesystem::path& path, const CorrelatorFile& file);
// Reads back what write_correlators_hdf5 wrote (for tests and tools).
CorrelatorFile read_correlators_hdf5(const std::filesystem::path& path);

}  // namespace lqcd::io
