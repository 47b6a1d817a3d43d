#pragma once
// A gauge configuration in the host-side order of the file formats: sites lexicographic with x
// fastest and t slowest, then the direction mu = 0..3 (x, y, z, t), each link a row-major 3x3 matrix,
// always held in double precision. Data enter and leave the program in this form (I/O, tests);
// kernels never see it: GaugeField converts to and from the parity-blocked device layout.

#include <cstdint>
#include <vector>

#include "core/geometry.hpp"
#include "math/su3.hpp"

namespace lqcd {

struct LexicographicGauge {
  Dims dims{};
  std::vector<SU3<double>> links;  // index site * 4 + mu

  LexicographicGauge() = default;
  explicit LexicographicGauge(const Dims& d)
      : dims(d), links(std::size_t(d[0]) * d[1] * d[2] * d[3] * 4, SU3<double>::identity()) {}

  std::int64_t volume() const { return std::int64_t(dims[0]) * dims[1] * dims[2] * dims[3]; }
  SU3<double>& operator()(std::int64_t site, int mu) { return links[std::size_t(site) * 4 + mu]; }
  const SU3<double>& operator()(std::int64_t site, int mu) const { return links[std::size_t(site) * 4 + mu]; }
};

// The configuration repeated copies[mu] times in each direction: U'_mu(x) = U_mu(x mod L). Every
// gauge-invariant local average (plaquette, rectangles) is unchanged; used to start a large run from
// a configuration thermalised on a smaller lattice.
LexicographicGauge tile(const LexicographicGauge& g, const Dims& copies);

}  // namespace lqcd
