#include "app/input_values.hpp"

#include <cmath>

#include <fmt/format.h>

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
