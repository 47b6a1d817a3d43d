#pragma once
// Gradient-flow histories to HDF5 (lqcd flow --hdf5): per configuration k (in the order measured; a file
// that fails is skipped, so its `file` attribute names each record) a group
// /flow/cfg_KKKKKK with the dataset "history" of shape [n][7], columns t/a^2, steps, E_plaq a^4,
// E_clover a^4, t^2 E_plaq, t^2 E_clover, Q (named in the dataset's "columns" attribute), and the
// attributes "file", "t0" and "w0" (NaN where not reached); run parameters as attributes of the root
// group. Written atomically.

#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace lqcd::io {

inline constexpr int kFlowColumns = 7;
inline constexpr const char* kFlowColumnNames = "t,steps,E_plaquette,E_clover,t2E_plaquette,t2E_clover,Q";

struct FlowHistoryRecord {
  std::string file;
  double t0 = 0, w0 = 0;  // NaN: not reached
  std::vector<std::array<double, kFlowColumns>> rows;
};

struct FlowHistoryFile {
  std::vector<FlowHistoryRecord> records;
  std::map<std::string, std::string> string_attributes;
  std::map<std::string, double> number_attributes;
};

void write_flow_hdf5(const std::filesystem::path& path, const FlowHistoryFile& file);
// Reads back what write_flow_hdf5 wrote (records in order; for tests and tools).
FlowHistoryFile read_flow_hdf5(const std::filesystem::path& path);

}  // namespace lqcd::io
