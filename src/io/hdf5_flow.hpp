#pragma once
// Gradient-flow histories to HDF5 (lqcd flow --hdf5, and PREFIX.flow.h5 of lqcd heatbath / lqcd hmc with
// flow.hdf5 = true): per configuration k (in the order measured; a file that fails is skipped, so its
// `file` attribute names each record: the configuration file, or "sweep N" / "trajectory N" for a chain's
// configuration that was not saved) a group /flow/cfg_KKKKKK with the dataset "history" of shape [n][7],
// columns t/a^2, steps, E_plaq a^4, E_clover a^4, t^2 E_plaq, t^2 E_clover, Q, or [n][8] with the eighth
// column Q_improved (the O(a^2)-improved charge, gauge/gradient_flow.hpp) when it was measured
// (--improved-charge, flow.improved_charge); the columns are named in the dataset's "columns" attribute.
// With time slices (lqcd flow --slices, and open boundaries: gauge/gradient_flow.hpp FlowSlices) also the
// dataset "slices" of shape [n][3][N0]: E_plaq(x0) a^4, E_clover(x0) a^4, q(x0) of each row.
// The group's attributes: "file", "boundary" (the lattice's time boundary, where known), "t0" and "w0" (NaN where not reached); run parameters as attributes of
// the root group. Written atomically (a temporary renamed onto the name: an existing file is replaced
// whole or not at all).

#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace lqcd::io {

inline constexpr int kFlowColumns = 7;  // without the optional Q_improved
inline constexpr const char* kFlowColumnNames = "t,steps,E_plaquette,E_clover,t2E_plaquette,t2E_clover,Q";
inline constexpr const char* kFlowImprovedColumnName = "Q_improved";

struct FlowHistoryRecord {
  std::string file;
  std::string boundary;   // "open" or "periodic" (the group's attribute); empty: not written
  double t0 = 0, w0 = 0;  // NaN: not reached
  std::vector<std::array<double, kFlowColumns>> rows;
  // Empty, or Q_improved of each row (the dataset's eighth column).
  std::vector<double> charge_improved;
  // Empty, or of each row 3 N0 values: E_plaq(x0), E_clover(x0), q(x0) for x0 = 0 .. N0 - 1 (the dataset
  // "slices").
  std::vector<std::vector<double>> slices;
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
