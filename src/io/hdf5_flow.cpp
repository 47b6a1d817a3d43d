#include "io/hdf5_flow.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "io/hdf5_support.hpp"

namespace lqcd::io {

namespace {

std::string record_name(std::size_t k) { return fmt::format("cfg_{:06d}", k); }

// The record's time slices as the dataset "slices" [n][3][N0].
void write_slices(hid_t g, const FlowHistoryRecord& r, const std::filesystem::path& path, const std::string& name) {
  const std::size_t width = r.slices.front().size();
  if (r.slices.size() != r.rows.size() || width % 3 != 0 || width == 0)
    fail("{}: /flow/{}: {} rows of time slices for {} rows", path.string(), name, r.slices.size(), r.rows.size());
  std::vector<double> data;
  for (const std::vector<double>& row : r.slices) {
    if (row.size() != width) fail("{}: /flow/{}: rows of time slices of different lengths", path.string(), name);
    data.insert(data.end(), row.begin(), row.end());
  }
  const hsize_t dims[3] = {hsize_t(r.slices.size()), 3, hsize_t(width / 3)};
  Handle space(H5Screate_simple(3, dims, nullptr), H5Sclose);
  Handle ds(H5Dcreate2(g, "slices", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  if (!ds.ok()) fail("{}: cannot create HDF5 dataset /flow/{}/slices", path.string(), name);
  write_string_attribute(ds, "columns", "E_plaquette(x0),E_clover(x0),Q(x0)", path);
  check(H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()), path, "/flow/" + name + "/slices");
}

// The dataset "slices" of group g, if there, into r.slices.
void read_slices(hid_t g, FlowHistoryRecord& r, const std::filesystem::path& path, const std::string& name) {
  if (H5Lexists(g, "slices", H5P_DEFAULT) <= 0) return;
  Handle ds(H5Dopen2(g, "slices", H5P_DEFAULT), H5Dclose);
  if (!ds.ok()) fail("{}: cannot open /flow/{}/slices", path.string(), name);
  Handle space(H5Dget_space(ds), H5Sclose);
  hsize_t dims[3] = {0, 0, 0};
  if (H5Sget_simple_extent_ndims(space) != 3 || H5Sget_simple_extent_dims(space, dims, nullptr) != 3 ||
      dims[0] != r.rows.size() || dims[1] != 3)
    fail("{}: /flow/{}/slices: expected [{}][3][N0] doubles", path.string(), name, r.rows.size());
  std::vector<double> data(std::size_t(dims[0] * dims[1] * dims[2]));
  if (H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0)
    fail("{}: cannot read /flow/{}/slices", path.string(), name);
  const std::size_t width = std::size_t(3 * dims[2]);
  for (std::size_t i = 0; i < dims[0]; ++i)
    r.slices.emplace_back(data.begin() + std::ptrdiff_t(i * width), data.begin() + std::ptrdiff_t((i + 1) * width));
}

}  // namespace

void write_flow_hdf5(const std::filesystem::path& path, const FlowHistoryFile& file) {
  write_hdf5_atomically(path, [&](hid_t f) {
    for (const auto& [k, v] : file.string_attributes) write_string_attribute(f, k, v, path);
    for (const auto& [k, v] : file.number_attributes) write_number_attribute(f, k, v, path);
    Handle top(H5Gcreate2(f, "flow", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    for (std::size_t k = 0; k < file.records.size(); ++k) {
      const FlowHistoryRecord& r = file.records[k];
      Handle g(H5Gcreate2(top, record_name(k).c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
      if (!g.ok()) fail("{}: cannot create HDF5 group /flow/{}", path.string(), record_name(k));
      write_string_attribute(g, "file", r.file, path);
      if (!r.boundary.empty()) write_string_attribute(g, "boundary", r.boundary, path);
      write_number_attribute(g, "t0", r.t0, path);
      write_number_attribute(g, "w0", r.w0, path);
      const bool improved = !r.charge_improved.empty();
      if (improved && r.charge_improved.size() != r.rows.size())
        fail("{}: /flow/{}: {} improved charges for {} rows", path.string(), record_name(k), r.charge_improved.size(),
             r.rows.size());
      const int columns = kFlowColumns + (improved ? 1 : 0);
      std::vector<double> data;
      data.reserve(r.rows.size() * std::size_t(columns));
      for (std::size_t i = 0; i < r.rows.size(); ++i) {
        data.insert(data.end(), r.rows[i].begin(), r.rows[i].end());
        if (improved) data.push_back(r.charge_improved[i]);
      }
      const hsize_t dims[2] = {hsize_t(r.rows.size()), hsize_t(columns)};
      Handle space(H5Screate_simple(2, dims, nullptr), H5Sclose);
      Handle ds(H5Dcreate2(g, "history", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
      if (!ds.ok()) fail("{}: cannot create HDF5 dataset /flow/{}/history", path.string(), record_name(k));
      write_string_attribute(ds, "columns",
                             improved ? fmt::format("{},{}", kFlowColumnNames, kFlowImprovedColumnName)
                                      : std::string(kFlowColumnNames),
                             path);
      check(H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()), path,
            "/flow/" + record_name(k) + "/history");
      if (!r.slices.empty()) write_slices(g, r, path, record_name(k));
    }
  });
}

FlowHistoryFile read_flow_hdf5(const std::filesystem::path& path) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  Handle f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!f.ok()) fail("{}: not a readable HDF5 file", path.string());
  Handle top(H5Gopen2(f, "flow", H5P_DEFAULT), H5Gclose);
  if (!top.ok()) fail("{}: no /flow group", path.string());
  FlowHistoryFile out;
  for (const char* key : {"action", "units", "boundary"})
    if (H5Aexists(f, key) > 0) out.string_attributes[key] = read_string_attribute(f, key, path);
  for (const char* key : {"epsilon", "tolerance"})
    if (H5Aexists(f, key) > 0) out.number_attributes[key] = read_number_attribute(f, key, path);
  for (std::size_t k = 0;; ++k) {
    const std::string name = record_name(k);
    if (H5Lexists(top, name.c_str(), H5P_DEFAULT) <= 0) break;
    Handle g(H5Gopen2(top, name.c_str(), H5P_DEFAULT), H5Gclose);
    FlowHistoryRecord r;
    r.file = read_string_attribute(g, "file", path);
    if (H5Aexists(g, "boundary") > 0) r.boundary = read_string_attribute(g, "boundary", path);
    r.t0 = read_number_attribute(g, "t0", path);
    r.w0 = read_number_attribute(g, "w0", path);
    Handle ds(H5Dopen2(g, "history", H5P_DEFAULT), H5Dclose);
    Handle space(H5Dget_space(ds), H5Sclose);
    hsize_t dims[2] = {0, 0};
    if (!ds.ok() || H5Sget_simple_extent_dims(space, dims, nullptr) != 2 ||
        (dims[1] != hsize_t(kFlowColumns) && dims[1] != hsize_t(kFlowColumns + 1)))
      fail("{}: /flow/{}/history: expected [n][{}] or [n][{}] doubles", path.string(), name, kFlowColumns,
           kFlowColumns + 1);
    const std::size_t columns = std::size_t(dims[1]);
    std::vector<double> data(std::size_t(dims[0]) * columns);
    if (H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0)
      fail("{}: cannot read /flow/{}/history", path.string(), name);
    r.rows.resize(dims[0]);
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
      std::copy_n(data.begin() + std::ptrdiff_t(i * columns), kFlowColumns, r.rows[i].begin());
      if (columns > std::size_t(kFlowColumns)) r.charge_improved.push_back(data[i * columns + kFlowColumns]);
    }
    read_slices(g, r, path, name);
    out.records.push_back(std::move(r));
  }
  return out;
}

}  // namespace lqcd::io
