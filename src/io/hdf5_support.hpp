#pragma once
// What the HDF5 writers of lqcd share (io/hdf5_correlators, io/hdf5_flow, io/hdf5_distillation): an RAII handle for HDF5
// identifiers, status checks that throw lqcd::Error naming the file, scalar attributes, and the atomic
// write (a temporary file renamed onto the final name).

#include <hdf5.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "core/error.hpp"

namespace lqcd::io {

// RAII for HDF5 identifiers.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  operator hid_t() const { return id_; }
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

inline void check(herr_t status, const std::filesystem::path& path, const std::string& what) {
  if (status < 0) fail("{}: HDF5 error while writing {}", path.string(), what);
}

inline void write_string_attribute(hid_t obj, const std::string& key, const std::string& value,
                            const std::filesystem::path& path) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type, value.size() + 1);
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle attr(H5Acreate2(obj, key.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!attr.ok()) fail("{}: cannot create HDF5 attribute {}", path.string(), key);
  check(H5Awrite(attr, type, value.c_str()), path, "attribute " + key);
}

inline void write_number_attribute(hid_t obj, const std::string& key, double value, const std::filesystem::path& path) {
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle attr(H5Acreate2(obj, key.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!attr.ok()) fail("{}: cannot create HDF5 attribute {}", path.string(), key);
  check(H5Awrite(attr, H5T_NATIVE_DOUBLE, &value), path, "attribute " + key);
}

// Readers of the attributes above; throw lqcd::Error naming the file and key when one is missing or is
// not a single value (an array attribute would not fit the one value read).
inline hssize_t attribute_points(hid_t attr) {
  Handle space(H5Aget_space(attr), H5Sclose);
  return space.ok() ? H5Sget_simple_extent_npoints(space) : -1;
}

inline double read_number_attribute(hid_t obj, const char* key, const std::filesystem::path& path) {
  Handle attr(H5Aopen(obj, key, H5P_DEFAULT), H5Aclose);
  if (!attr.ok()) fail("{}: no attribute {}", path.string(), key);
  if (attribute_points(attr) != 1) fail("{}: attribute {} is not a single number", path.string(), key);
  double v = 0;
  if (H5Aread(attr, H5T_NATIVE_DOUBLE, &v) < 0) fail("{}: attribute {} is not a number", path.string(), key);
  return v;
}

inline std::string read_string_attribute(hid_t obj, const char* key, const std::filesystem::path& path) {
  Handle attr(H5Aopen(obj, key, H5P_DEFAULT), H5Aclose);
  Handle type(attr.ok() ? H5Aget_type(attr) : -1, H5Tclose);
  if (!attr.ok() || !type.ok()) fail("{}: no attribute {}", path.string(), key);
  if (attribute_points(attr) != 1 || H5Tis_variable_str(type) != 0)
    fail("{}: attribute {} is not a single fixed-length string", path.string(), key);
  std::string value(H5Tget_size(type), '\0');
  Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(mem, value.size());
  if (H5Aread(attr, mem, value.data()) < 0) fail("{}: cannot read attribute {}", path.string(), key);
  return value.substr(0, value.find('\0'));
}

// Writes an HDF5 file through `fill(file_id)` into a temporary beside `path`, then renames it onto path;
// a failure leaves no file of that name changed.
template <typename Fill>
void write_hdf5_atomically(const std::filesystem::path& path, Fill&& fill) {
  const std::filesystem::path tmp = path.parent_path() / fmt::format(".{}.tmp.{}", path.filename().string(), ::getpid());
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors become lqcd::Error, not HDF5's stack dump
  try {
    Handle f(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    if (!f.ok()) fail("{}: cannot create the HDF5 file (is the directory writable?)", path.string());
    fill(hid_t(f));
    check(H5Fflush(f, H5F_SCOPE_GLOBAL), path, "the file");
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    fail("{}: cannot move the finished HDF5 file into place", path.string());
  }
}

}  // namespace lqcd::io
