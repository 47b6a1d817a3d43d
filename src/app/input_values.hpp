#pragma once
// Input values several commands read the same way, checked once: the lattice extents and the format
// of saved configurations.

#include <string>
#include <vector>

#include "app/config.hpp"
#include "core/geometry.hpp"
#include "core/memory.hpp"
#include "gauge/gauge_action.hpp"
#include "solvers/solver.hpp"

namespace lqcd::app {

// An integer in [lo, hi] / a finite positive number (errors name the key and the range).
std::int64_t read_integer(const Config& c, const std::string& key, std::int64_t lo, std::int64_t hi);
double read_positive(const Config& c, const std::string& key);
// solver.precision: "double", "single" or "half" (an error names the input file and the key).
SolverPrecision read_solver_precision(const Config& c);

// A command-line option of four comma-separated positive integers X,Y,Z,T (--dims, --grid, --tile);
// errors name the option.
Dims parse_dims_option(const std::string& text, const std::string& option);

// This rank's part of the global lattice over the process grid given by a --grid option ("X,Y,Z,T"; empty:
// ProcessGrid::default_grid over the run's processes). Errors name --grid or `what`.
Geometry decompose_over_run(const Dims& global, const std::string& grid_option, const std::string& what);

// lattice.dims: four even extents in [2, 2^30] (errors name the key); the memory a lattice needs is checked by
// check_lattice_fits.
Dims read_lattice_dims(const Config& c);
// gauge.boundary and gauge.c_G (heatbath, hmc): the gauge action's boundary in time, periodic or openQCD's
// open one (gauge/time_boundary.hpp; Wilson action, at least 4 time slices), into `a`.
std::vector<KeySpec> gauge_boundary_schema();
void read_gauge_boundary(const Config& c, const Dims& dims, GaugeAction& a);

// Refuses, before anything is allocated or written, a lattice this process cannot hold: `bytes_per_site` is a
// lower bound of what the command keeps per site of this process's box at `loc` (`held` says what, for the
// message), checked against the memory there (memory_capacity_bytes); also the 32-bit site indexing of the
// kernels. `where` starts the message ("run.toml: lattice.dims"); `remedy` ends it (what to change).
void check_lattice_fits(const Geometry& g, double bytes_per_site, Location loc, const std::string& where,
                        const std::string& held,
                        const std::string& remedy = "use a smaller lattice or split it over more processes (mpirun, --grid)");

// Bytes per site of the fields every command holds: the double-precision gauge field (4 links of 18 reals) and
// one spin-colour vector (24 reals).
inline constexpr double kGaugeBytesPerSite = 4 * 18 * 8, kSpinorBytesPerSite = 24 * 8;

// output.prefix: a non-empty file-name start, not a directory (errors name the file and the key).
std::string read_output_prefix(const Config& c);

// The [output] keys of a Markov-chain run (prefix, format, precision, save_every, checkpoint_every);
// `step` names the chain's unit in the help ("sweeps", "trajectories").
std::vector<KeySpec> chain_output_schema(const std::string& default_prefix, const std::string& step);

// output.format (ildg | nersc | openqcd) and output.precision (32 | 64; openqcd 64 only).
struct SavedFormat {
  std::string format;
  int precision = 64;
};
SavedFormat read_saved_format(const Config& c);

}  // namespace lqcd::app
