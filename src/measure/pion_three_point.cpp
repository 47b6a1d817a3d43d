#include "measure/pion_three_point.hpp"

#include "core/error.hpp"
#include "measure/current_insertion.hpp"  // spin_times

namespace lqcd {

PointPropagator pion_sequential_propagator(const DiracOperators& ops, bool even_odd, const PointPropagator& S,
                                           int t_sink, const PropagatorOptions& options) {
  S.check_columns();
  const Geometry& geom = S.geometry;
  const int T = geom.global[3];
  const int sink = ((S.source[3] + t_sink) % T + T) % T;
  const SpinMatrix g5 = SpinMatrix::gamma(kGamma5);
  const SiteIndexer idx = SiteIndexer::from(geom);
  PointPropagator B;
  B.geometry = geom;
  B.source = S.source;
  // B is a plain M^-1 of the sequential source: S's own smearing (at its source) is already in it.
  PropagatorOptions plain = options;
  plain.source_smearing = GaussianParams{};
  plain.sink_smearing = GaussianParams{};
  solve_sources(
      ops, even_odd, 12,
      [&](int j) {
        LexicographicSpinor eta(std::size_t(geom.volume()));
        for (std::int64_t i = 0; i < geom.volume(); ++i) {
          int x[4];
          idx.coords_lex(i, x);
          if (x[3] + geom.offset[3] == sink) eta[std::size_t(i)] = spin_times(g5, S.column[std::size_t(j)][std::size_t(i)]);
        }
        return local_to_spinor_field(eta, geom, ops.full->location());
      },
      plain, [&](int j, SpinorField<double>& psi) { B.column[std::size_t(j)] = to_local_lexicographic(psi); });
  return B;
}

}  // namespace lqcd
