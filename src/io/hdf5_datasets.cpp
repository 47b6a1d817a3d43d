#include "io/hdf5_datasets.hpp"

#include "io/hdf5_support.hpp"

namespace lqcd::io {

namespace {
void write_dataset(hid_t f, hid_t links, const Hdf5Dataset& d, const std::filesystem::path& path) {
  std::uint64_t count = 1;
  std::vector<hsize_t> dims;
  for (std::uint64_t n : d.shape) {
    dims.push_back(hsize_t(n));
    count *= n;
  }
  if (count != d.values.size())
    fail("{}: dataset {} has {} values for its shape of {}", path.string(), d.name, d.values.size(), count);
  Handle space(H5Screate_simple(int(dims.size()), dims.data(), nullptr), H5Sclose);
  Handle ds(H5Dcreate2(f, d.name.c_str(), H5T_IEEE_F64LE, space, links, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  if (!ds.ok()) fail("{}: cannot create the HDF5 dataset {}", path.string(), d.name);
  if (count > 0) check(H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, d.values.data()), path, d.name);
  for (const auto& [k, v] : d.string_attributes) write_string_attribute(ds, k, v, path);
  for (const auto& [k, v] : d.number_attributes) write_number_attribute(ds, k, v, path);
}
}  // namespace

void write_datasets_hdf5(const std::filesystem::path& path, const Hdf5Datasets& file, std::size_t count,
                         const std::function<Hdf5Dataset(std::size_t)>& dataset) {
  write_hdf5_atomically(path, [&](hid_t f) {
    for (const auto& [k, v] : file.string_attributes) write_string_attribute(f, k, v, path);
    for (const auto& [k, v] : file.number_attributes) write_number_attribute(f, k, v, path);
    Handle links(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
    check(H5Pset_create_intermediate_group(links, 1), path, "a property list");
    for (const Hdf5Dataset& d : file.datasets) write_dataset(f, links, d, path);
    for (std::size_t k = 0; k < count; ++k) write_dataset(f, links, dataset(k), path);
  });
}

void write_datasets_hdf5(const std::filesystem::path& path, const Hdf5Datasets& file) {
  write_datasets_hdf5(path, file, 0, {});
}

namespace {
herr_t collect_attribute(hid_t, const char* name, const H5A_info_t*, void* out) {
  static_cast<std::vector<std::string>*>(out)->push_back(name);
  return 0;
}

// The single-valued number and string attributes of obj.
void read_attributes(hid_t obj, const std::filesystem::path& path, std::map<std::string, std::string>& strings,
                     std::map<std::string, double>& numbers) {
  std::vector<std::string> names;
  if (H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_attribute, &names) < 0)
    fail("{}: cannot list the attributes", path.string());
  for (const std::string& a : names) {
    Handle attr(H5Aopen(obj, a.c_str(), H5P_DEFAULT), H5Aclose);
    Handle type(attr.ok() ? H5Aget_type(attr) : -1, H5Tclose);
    if (!type.ok() || attribute_points(attr) != 1) continue;  // not a single value: not one of ours
    const H5T_class_t c = H5Tget_class(type);
    if (c == H5T_STRING && H5Tis_variable_str(type) == 0)
      strings[a] = read_string_attribute(obj, a.c_str(), path);
    else if (c == H5T_FLOAT || c == H5T_INTEGER)
      numbers[a] = read_number_attribute(obj, a.c_str(), path);
  }
}
}  // namespace

Hdf5Dataset read_dataset_hdf5(const std::filesystem::path& path, const std::string& name) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  Handle f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!f.ok()) fail("{}: not a readable HDF5 file", path.string());
  Handle ds(H5Dopen2(f, name.c_str(), H5P_DEFAULT), H5Dclose);
  if (!ds.ok()) fail("{}: no dataset {}", path.string(), name);
  Handle space(H5Dget_space(ds), H5Sclose);
  const int rank = space.ok() ? H5Sget_simple_extent_ndims(space) : -1;
  if (rank < 0) fail("{}: dataset {} has no simple shape", path.string(), name);
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  if (H5Sget_simple_extent_dims(space, dims.data(), nullptr) < 0) fail("{}: dataset {} has no simple shape", path.string(), name);
  Hdf5Dataset d;
  d.name = name;
  std::uint64_t count = 1;
  for (hsize_t n : dims) {
    d.shape.push_back(std::uint64_t(n));
    count *= n;
  }
  d.values.resize(count);
  if (count > 0 && H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, d.values.data()) < 0)
    fail("{}: cannot read dataset {} as numbers", path.string(), name);
  read_attributes(ds, path, d.string_attributes, d.number_attributes);
  return d;
}

Hdf5Datasets read_root_attributes_hdf5(const std::filesystem::path& path) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  Handle f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!f.ok()) fail("{}: not a readable HDF5 file", path.string());
  Hdf5Datasets out;
  read_attributes(f, path, out.string_attributes, out.number_attributes);
  return out;
}

}  // namespace lqcd::io
