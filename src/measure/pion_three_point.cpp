#include "measure/pion_three_point.hpp"

#include "core/error.hpp"
#include "measure/current_insertion.hpp"

namespace lqcd {

PointPropagator pion_sequential_propagator(const DiracOperators& ops, bool even_odd, const PointPropagator& S,
                                           int t_sink, const PropagatorOptions& options) {
  S.check_columns();
  const Geometry& geom = S.geometry;
  const int T = geom.global[3];
  const int sink = ((S.source[3] + t_sink) % T + T) % T;
  const SpinMatrix g5 = SpinMatrix::gamma(kGamma5);
  const SiteIndexer idx = SiteIndexer::from(geom);
  return solve_sequential(ops, even_odd, S, options, [&](int j) {
    LexicographicSpinor eta(std::size_t(geom.volume()));
    for (std::int64_t i = 0; i < geom.volume(); ++i) {
      int x[4];
      idx.coords_lex(i, x);
      if (x[3] + geom.offset[3] == sink) eta[std::size_t(i)] = spin_times(g5, S.column[std::size_t(j)][std::size_t(i)]);
    }
    return eta;
  });
}

}  // namespace lqcd
