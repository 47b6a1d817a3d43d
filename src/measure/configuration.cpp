#include "measure/configuration.hpp"

#include <cmath>
#include <optional>

#include "core/error.hpp"
#include "gauge/open_boundary.hpp"

namespace lqcd {

double header_tolerance(int precision_bits) {
  // Headers print 6 to 12 digits (NERSC "%.10g", tmLQCD "%f"): 1e-6 absolute covers "%f", and
  // float32 links carry ~1e-7 relative rounding per link, far inside it.
  return precision_bits == 32 ? 2e-6 : 1e-6;
}

namespace {

// The file's description and the field on the requested geometry (whole lattice, or this rank's part).
std::pair<io::GaugeFileInfo, GaugeField<double>> read_field(const std::filesystem::path& file, const LoadPolicy& policy) {
  const std::string name = file.string();
  if (policy.geometry) {
    io::GaugeFilePart part = io::read_gauge_file_part(file, *policy.geometry);
    return {std::move(part.info), from_box(part.box, *policy.geometry, policy.location, name)};
  }
  if (policy.decompose) {
    // The geometry follows from the file's dims (header), then each rank reads its part (MPI-IO for
    // ILDG, SciDAC and NERSC; MILC and openQCD whole and kept in part).
    std::optional<Geometry> geom;
    io::GaugeFilePart part = io::read_gauge_file_part(file, [&](const Dims& dims) {
      if (policy.expected_dims && dims != *policy.expected_dims)
        fail("{}: lattice dims {} do not match the input's {}", name, dims_string(dims),
             dims_string(*policy.expected_dims));
      geom = policy.decompose(dims);
      return *geom;
    });
    return {std::move(part.info), from_box(part.box, *geom, policy.location, name)};
  }
  io::GaugeFile gf = io::read_gauge_file(file);
  if (policy.expected_dims && gf.info.dims != *policy.expected_dims)
    fail("{}: lattice dims {} do not match the input's {}", name, dims_string(gf.info.dims),
         dims_string(*policy.expected_dims));
  const Geometry geom = Geometry::single_process(gf.info.dims, name);
  return {std::move(gf.info), to_gauge_field(gf.field, geom, policy.location, name)};
}

}  // namespace

LoadedConfiguration load_configuration(const std::filesystem::path& file, const LoadPolicy& policy) {
  const std::string name = file.string();
  if (policy.geometry && policy.expected_dims && policy.geometry->global != *policy.expected_dims)
    fail("{}: internal: expected dims {} on a lattice of {}", name, dims_string(*policy.expected_dims),
         dims_string(policy.geometry->global));
  auto [info, field] = read_field(file, policy);
  if (policy.verify && info.checksum_ok == false)
    fail("{}: checksum mismatch ({}); the file is corrupted (use --no-verify to read it anyway)", name,
         info.checksum_detail);
  LoadedConfiguration c{std::move(info), std::move(field), {}, 0};
  const io::GaugeFileInfo& gf_info = c.info;
  c.observables = gauge_observables(c.field);

  const double su3_tolerance = gf_info.precision_bits == 32 ? 1e-5 : 1e-10;
  TimeBoundary boundary = policy.time_boundary;
  if (!boundary.open && policy.open_time_boundary_by_links && time_links_vanish_at_last_slice(c.field)) {
    boundary.open = true;  // only frozen() is read here: which links are exempt
    boundary.last = c.field.geometry().global[kTimeDir] - 1;
  }
  c.open_time_boundary = boundary.open;
  const UnitarityStats u = unitarity(c.field, su3_tolerance, boundary);
  c.max_su3_deviation = u.max_deviation;
  if (policy.verify && u.violations > 0)
    fail("{}: {} links are not SU(3) (largest deviation |UU^+ - 1| + |det U - 1| = {:.3g}, tolerance {:.0e})", name,
         std::int64_t(u.violations), u.max_deviation, su3_tolerance);

  const double tol = header_tolerance(gf_info.precision_bits);
  if (policy.verify && gf_info.header_plaquette &&
      !(std::abs(*gf_info.header_plaquette - c.observables.plaquette) <= tol))
    fail("{}: header plaquette {:.10f} does not match the links' plaquette {:.10f} (tolerance {:.0e})", name,
         *gf_info.header_plaquette, c.observables.plaquette, tol);
  if (policy.verify && gf_info.header_link_trace &&
      !(std::abs(*gf_info.header_link_trace - c.observables.link_trace) <= tol))
    fail("{}: header link trace {:.10f} does not match the links' link trace {:.10f} (tolerance {:.0e})", name,
         *gf_info.header_link_trace, c.observables.link_trace, tol);
  return c;
}

}  // namespace lqcd
