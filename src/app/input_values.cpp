#include "app/input_values.hpp"

#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "comm/communicator.hpp"
#include "comm/process_grid.hpp"
#include "core/error.hpp"

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

Dims read_lattice_dims(const Config& c) {
  const std::vector<std::int64_t> d = c.integers("lattice.dims");
  if (d.size() != 4) c.fail_key("lattice.dims", fmt::format("expected 4 extents [x, y, z, t], got {}", d.size()));
  Dims dims{};
  for (int mu = 0; mu < 4; ++mu) {
    if (d[mu] < 2 || d[mu] > 4096 || d[mu] % 2)
      c.fail_key("lattice.dims", fmt::format("extent {} in direction {} must be even and in [2, 4096]", d[mu], "xyzt"[mu]));
    dims[mu] = int(d[mu]);
  }
  return dims;
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
