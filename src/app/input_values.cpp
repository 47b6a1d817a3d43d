#include "app/input_values.hpp"

#include <cmath>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "comm/communicator.hpp"
#include "comm/process_grid.hpp"
#include "core/error.hpp"
#include "core/memory_capacity.hpp"

namespace lqcd::app {

std::int64_t read_integer(const Config& c, const std::string& key, std::int64_t lo, std::int64_t hi) {
  const std::int64_t v = c.integer(key);
  if (v < lo || v > hi) c.fail_key(key, fmt::format("expected an integer in [{}, {}], got {}", lo, hi, v));
  return v;
}

double read_positive(const Config& c, const std::string& key) {
  const double v = c.real(key);
  if (!(v > 0) || !std::isfinite(v)) c.fail_key(key, fmt::format("expected a positive number, got {}", v));
  return v;
}

SolverPrecision read_solver_precision(const Config& c) {
  try {
    return solver_precision_from_name(c.string("solver.precision"));
  } catch (const Error& e) {
    fail("{}: {}", c.source(), e.what());
  }
}

Dims parse_dims_option(const std::string& text, const std::string& option) {
  Dims d{};
  std::stringstream ss(text);
  std::string item;
  int mu = 0;
  while (std::getline(ss, item, ',')) {
    if (mu >= 4) fail("{}: expected four extents X,Y,Z,T (got \"{}\")", option, text);
    std::size_t used = 0;
    try {
      d[mu] = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size() || d[mu] < 1)
      fail("{}: \"{}\" is not a positive integer (expected X,Y,Z,T)", option, item);
    ++mu;
  }
  if (mu != 4) fail("{}: expected four extents X,Y,Z,T (got \"{}\")", option, text);
  return d;
}

Geometry decompose_over_run(const Dims& global, const std::string& grid_option, const std::string& what) {
  const Dims grid = grid_option.empty() ? ProcessGrid::default_grid(global, comm::size())
                                        : parse_dims_option(grid_option, "--grid");
  return ProcessGrid::of_run(grid).decompose(global, what);
}

std::vector<KeySpec> gauge_boundary_schema() {
  return {{"gauge.boundary", "\"periodic\"",
           "in time: periodic | open (openQCD's open boundaries: U_t = 0 at x0 = T = N0 - 1, quenched and "
           "pure-gauge HMC with the Wilson action so far)"},
          {"gauge.c_G", "1.0", "open boundaries: the spatial plaquettes at x0 = 0 and T weigh c_G / 2 (1: tree level)"}};
}

void read_gauge_boundary(const Config& c, const Dims& dims, GaugeAction& a) {
  const std::string b = c.string("gauge.boundary");
  if (b == "periodic") {
    a.boundary = TimeBoundaryType::Periodic;
  } else if (b == "open") {
    a.boundary = TimeBoundaryType::Open;
    if (a.has_rectangles())
      c.fail_key("gauge.boundary", fmt::format("open boundaries are implemented for the Wilson gauge action only "
                                               "(gauge.action = \"{}\")", a.name()));
    if (dims[3] < 4)
      c.fail_key("gauge.boundary", fmt::format("open boundaries need at least 4 time slices (lattice.dims has {})", dims[3]));
  } else {
    c.fail_key("gauge.boundary", fmt::format("expected \"periodic\" or \"open\", got \"{}\"", b));
  }
  a.c_G = c.real("gauge.c_G");
  if (!(a.c_G >= 0) || !std::isfinite(a.c_G)) c.fail_key("gauge.c_G", fmt::format("expected a number >= 0, got {}", a.c_G));
}

Dims read_lattice_dims(const Config& c) {
  const std::vector<std::int64_t> d = c.integers("lattice.dims");
  if (d.size() != 4) c.fail_key("lattice.dims", fmt::format("expected 4 extents [x, y, z, t], got {}", d.size()));
  Dims dims{};
  for (int mu = 0; mu < 4; ++mu) {
    // Even: the updates and the even-odd preconditioned operators split the lattice by parity. The upper
    // bound only keeps the extent an int; what a lattice may hold is check_lattice_fits's business.
    if (d[mu] < 2 || d[mu] > 1 << 30 || d[mu] % 2)
      c.fail_key("lattice.dims",
                 fmt::format("extent {} in direction {}: expected an even integer in [2, 2^30] (the updates and the "
                             "even-odd operators split the lattice by parity)",
                             d[mu], "xyzt"[mu]));
    dims[mu] = int(d[mu]);
  }
  return dims;
}

void check_lattice_fits(const Geometry& g, double bytes_per_site, Location loc, const std::string& where,
                        const std::string& held, const std::string& remedy) {
  constexpr double GiB = double(std::int64_t(1) << 30);
  const double need = double(g.volume()) * bytes_per_site;
  const std::int64_t have = memory_capacity_bytes(loc);
  if (have > 0 && need > double(have))
    fail("{}: a {} lattice{} needs at least {:.4g} GiB of {} memory per process ({}: {:.0f} bytes per site), more "
         "than the {:.1f} GiB {} has; {}",
         where, dims_string(g.global), g.distributed() ? fmt::format(" ({} per process)", dims_string(g.local)) : "",
         need / GiB, loc == Location::Device ? "device" : "host", held, bytes_per_site, double(have) / GiB,
         loc == Location::Device ? "the device" : "this machine", remedy);
  try {
    check_32_bit_indexing(g);
  } catch (const Error& e) {
    fail("{}: {}", where, e.what());
  }
}

std::string read_output_prefix(const Config& c) {
  const std::string prefix = c.string("output.prefix");
  if (prefix.empty()) c.fail_key("output.prefix", "expected a file-name start such as \"runs/b6.0\", got \"\"");
  std::error_code ec;
  if (prefix.back() == '/' || std::filesystem::path(prefix).filename() == "." ||
      std::filesystem::path(prefix).filename() == ".." || std::filesystem::is_directory(prefix, ec))
    c.fail_key("output.prefix", fmt::format("\"{}\" is a directory; expected a directory and a file-name start, such "
                                            "as \"{}/run\"",
                                            prefix, prefix.back() == '/' ? prefix.substr(0, prefix.size() - 1) : prefix));
  return prefix;
}

std::vector<KeySpec> chain_output_schema(const std::string& default_prefix, const std::string& step) {
  return {
      {"output.prefix", "\"" + default_prefix + "\"", "PREFIX.log, PREFIX.jsonl, PREFIX.NNNNNN.<format>, PREFIX.checkpoint.ildg"},
      {"output.format", "\"ildg\"", "ildg | nersc | openqcd: format of saved configurations"},
      {"output.precision", "64", "32 | 64 bits per real in saved configurations (openqcd: 64 only)"},
      {"output.save_every", "0", fmt::format("save a configuration every N {} after thermalization (0: never)", step)},
      {"output.checkpoint_every", "0", fmt::format("checkpoint every N {} and at the end, for --resume (0: never)", step)},
  };
}

SavedFormat read_saved_format(const Config& c) {
  SavedFormat f;
  f.format = c.string("output.format");
  if (f.format != "ildg" && f.format != "nersc" && f.format != "openqcd")
    c.fail_key("output.format", fmt::format("expected \"ildg\", \"nersc\" or \"openqcd\", got \"{}\"", f.format));
  f.precision = int(c.integer("output.precision"));
  if (f.precision != 32 && f.precision != 64)
    c.fail_key("output.precision", fmt::format("expected 32 or 64, got {}", f.precision));
  if (f.format == "openqcd" && f.precision != 64)
    c.fail_key("output.precision", "the openqcd format stores 64-bit reals only");
  return f;
}

}  // namespace lqcd::app
