#pragma once
// Reading a stored configuration the way every command needs it: the format detected from the
// content, the checksum verified, the header's plaquette and link trace compared with the values
// computed from the links, the links checked to be finite SU(3) matrices.

#include <filesystem>
#include <functional>
#include <optional>

#include "fields/gauge_field.hpp"
#include "gauge/observables.hpp"
#include "io/gauge_file.hpp"

namespace lqcd {

struct LoadedConfiguration {
  io::GaugeFileInfo info;
  GaugeField<double> field;
  GaugeObservables observables;
  double max_su3_deviation = 0;
  // The file is of an open lattice: LoadPolicy::time_boundary is open, or open_time_boundary_by_links
  // found every U_t at x0 = N0 - 1 zero.
  bool open_time_boundary = false;
};

struct LoadPolicy {
  bool verify = true;  // false: report mismatches in info instead of failing (lqcd measure --no-verify)
  Location location = Location::Host;
  std::optional<Dims> expected_dims;  // fail unless the file has these dims
  // A decomposed run: every rank calls load_configuration (collective) and reads only its part of the
  // lattice (io::read_gauge_file_part: MPI-IO for ILDG, SciDAC, NERSC); the field gets this geometry,
  // whose global dims the file must have. Absent: the whole lattice on one process.
  std::optional<Geometry> geometry;
  // Without `geometry`: this rank's part of the file's lattice (its dims, from the header, as argument),
  // e.g. over the run's process grid, read in parts as with `geometry`;
  // empty: the whole lattice on one process. The checks and observables then run on the decomposed
  // field (global sums), and `field` holds this rank's box with its halos.
  std::function<Geometry(const Dims& global)> decompose;
  // Open boundaries in time (gauge/time_boundary.hpp): the frozen links, zero in such a file, are not checked.
  TimeBoundary time_boundary;
  // A file whose links U_t at the last time slice x0 = N0 - 1 are all zero is taken as one of an open
  // lattice (openQCD's and lqcd's such files keep them zero): those links are not checked
  // (LoadedConfiguration::open_time_boundary). For commands that read either kind (lqcd flow).
  bool open_time_boundary_by_links = false;
};

// Throws lqcd::Error (one line naming the file; on every rank of a decomposed load, since the checks
// use the combined checksum and global sums) on a checksum mismatch, a header plaquette or link
// trace that does not match the links, links that are not SU(3), or dims other than expected.
LoadedConfiguration load_configuration(const std::filesystem::path& file, const LoadPolicy& policy = {});

// Tolerance for comparing a header value with the one computed from the links (header print
// precision plus the rounding of single-precision storage).
double header_tolerance(int precision_bits);

}  // namespace lqcd
