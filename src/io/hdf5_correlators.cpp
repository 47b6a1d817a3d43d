#include "io/hdf5_correlators.hpp"

#include "core/error.hpp"
#include "io/hdf5_support.hpp"

namespace lqcd::io {

namespace {

std::string dataset_path(const CorrelatorDataset& d) {
  return fmt::format("p{}_{}_{}", d.momentum[0], d.momentum[1], d.momentum[2]);
}

// The root group's scalar attributes: strings into string_attributes, floating-point numbers into
// number_attributes (other types are not written by this module and are skipped).
herr_t read_root_attribute(hid_t obj, const char* key, const H5A_info_t*, void* data) {
  auto& out = *static_cast<CorrelatorFile*>(data);
  Handle attr(H5Aopen(obj, key, H5P_DEFAULT), H5Aclose);
  Handle type(H5Aget_type(attr), H5Tclose);
  if (!attr.ok() || !type.ok()) return -1;
  const H5T_class_t cls = H5Tget_class(type);
  if (cls == H5T_STRING) {
    std::string value(H5Tget_size(type), '\0');
    Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(mem, value.size());
    if (H5Aread(attr, mem, value.data()) < 0) return -1;
    value.resize(value.find('\0') == std::string::npos ? value.size() : value.find('\0'));
    out.string_attributes[key] = value;
  } else if (cls == H5T_FLOAT) {
    double value = 0;
    if (H5Aread(attr, H5T_NATIVE_DOUBLE, &value) < 0) return -1;
    out.number_attributes[key] = value;
  }
  return 0;
}

}  // namespace

void write_correlators_hdf5(const std::filesystem::path& path, const CorrelatorFile& file) {
  write_hdf5_atomically(path, [&](hid_t f) {
    for (const auto& [k, v] : file.string_attributes) write_string_attribute(f, k, v, path);
    for (const auto& [k, v] : file.number_attributes) write_number_attribute(f, k, v, path);
    Handle top(H5Gcreate2(f, "correlators", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    for (const CorrelatorDataset& d : file.datasets) {
      const std::string group = d.name;
      if (H5Lexists(top, group.c_str(), H5P_DEFAULT) <= 0) {
        Handle g(H5Gcreate2(top, group.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
        if (!g.ok()) fail("{}: cannot create HDF5 group {}", path.string(), group);
      }
      Handle g(H5Gopen2(top, group.c_str(), H5P_DEFAULT), H5Gclose);
      const hsize_t dims[2] = {hsize_t(d.values.size()), 2};
      Handle space(H5Screate_simple(2, dims, nullptr), H5Sclose);
      const std::string name = dataset_path(d);
      Handle ds(H5Dcreate2(g, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
      if (!ds.ok()) fail("{}: cannot create HDF5 dataset {}/{} (duplicate?)", path.string(), group, name);
      check(H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, d.values.data()), path, group + "/" + name);
    }
  });
}

CorrelatorFile read_correlators_hdf5(const std::filesystem::path& path) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  Handle f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!f.ok()) fail("{}: not a readable HDF5 file", path.string());
  CorrelatorFile out;
  if (H5Aiterate2(f, H5_INDEX_NAME, H5_ITER_INC, nullptr, read_root_attribute, &out) < 0)
    fail("{}: cannot read the file's attributes", path.string());
  Handle top(H5Gopen2(f, "correlators", H5P_DEFAULT), H5Gclose);
  if (!top.ok()) fail("{}: no /correlators group", path.string());
  hsize_t ngroups = 0;
  H5Gget_num_objs(top, &ngroups);
  for (hsize_t gi = 0; gi < ngroups; ++gi) {
    char gname[256];
    H5Gget_objname_by_idx(top, gi, gname, sizeof gname);
    Handle g(H5Gopen2(top, gname, H5P_DEFAULT), H5Gclose);
    hsize_t nds = 0;
    H5Gget_num_objs(g, &nds);
    for (hsize_t di = 0; di < nds; ++di) {
      char dname[256];
      H5Gget_objname_by_idx(g, di, dname, sizeof dname);
      Handle ds(H5Dopen2(g, dname, H5P_DEFAULT), H5Dclose);
      Handle space(H5Dget_space(ds), H5Sclose);
      hsize_t dims[2] = {0, 0};
      H5Sget_simple_extent_dims(space, dims, nullptr);
      CorrelatorDataset d;
      d.name = gname;
      if (std::sscanf(dname, "p%d_%d_%d", &d.momentum[0], &d.momentum[1], &d.momentum[2]) != 3)
        fail("{}: unexpected dataset name {}/{}", path.string(), gname, dname);
      d.values.resize(dims[0]);
      if (H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, d.values.data()) < 0)
        fail("{}: cannot read {}/{}", path.string(), gname, dname);
      out.datasets.push_back(std::move(d));
    }
  }
  return out;
}

}  // namespace lqcd::io
