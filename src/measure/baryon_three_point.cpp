#include "measure/baryon_three_point.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "measure/current_insertion.hpp"

namespace lqcd {

PointPropagator baryon_sequential_propagator(const DiracOperators& ops, bool even_odd, const QuarkPropagators& quarks,
                                             const BaryonInterpolator& op, const BaryonProjection& W, Quark flavour,
                                             int t_sink, Complex<double> time_boundary_phase,
                                             const PropagatorOptions& options, const char* name) {
  const PointPropagator* any = quarks.up ? quarks.up : quarks.down ? quarks.down : quarks.strange;
  if (!any) throw Error(fmt::format("{}: no propagator", name));
  const Geometry& geom = any->geometry;
  const int T = geom.global[3];
  const int sink = ((any->source[3] + t_sink) % T + T) % T;
  const BaryonSinkKernel K = baryon_sink_kernel(quarks, op, W, flavour, sink, time_boundary_phase, name);
  const SpinMatrix g5 = SpinMatrix::gamma(kGamma5);
  const std::int64_t spatial = std::int64_t(geom.local[0]) * geom.local[1] * geom.local[2];
  return solve_sequential(ops, even_odd, *any, options, [&](int j) {
    LexicographicSpinor eta(std::size_t(geom.volume()));
    if (K.local_t >= 0)
      for (std::int64_t s = 0; s < spatial; ++s) {
        const std::array<Complex<double>, 144>& k = K.at[std::size_t(s)];
        ColorSpinor<double> column;
        for (int r = 0; r < 12; ++r) column.s[r / 3].c[r % 3] = conj(k[std::size_t(r * 12 + j)]);
        eta[std::size_t(K.local_t * spatial + s)] = spin_times(g5, column);
      }
    return eta;
  });
}

}  // namespace lqcd
