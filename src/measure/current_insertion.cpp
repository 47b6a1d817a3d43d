#include "measure/current_insertion.hpp"

#include "core/error.hpp"
#include "measure/momentum_projection.hpp"

namespace lqcd {

PointPropagator solve_sequential(const DiracOperators& ops, bool even_odd, const PointPropagator& S,
                                 const PropagatorOptions& options, const std::function<LexicographicSpinor(int)>& source) {
  PointPropagator B;
  B.geometry = S.geometry;
  B.source = S.source;
  PropagatorOptions plain = options;
  plain.source_smearing = GaussianParams{};
  plain.sink_smearing = GaussianParams{};
  solve_sources(
      ops, even_odd, 12, [&](int j) { return local_to_spinor_field(source(j), S.geometry, ops.full->location()); },
      plain, [&](int j, SpinorField<double>& psi) { B.column[std::size_t(j)] = to_local_lexicographic(psi); });
  return B;
}

std::vector<std::vector<Complex<double>>> current_insertion_local(const PointPropagator& S, const PointPropagator& B,
                                                                 const SpinMatrix& G,
                                                                 const std::vector<std::array<int, 3>>& momenta) {
  S.check_pair(B, "three-point function");
  const SpinMatrix g5G = SpinMatrix::gamma(kGamma5) * G;
  return project_to_momenta(S.geometry, S.source, momenta, [&](std::int64_t i, const int*) {
    Complex<double> s{};
    for (std::size_t j = 0; j < 12; ++j) s += inner(B.column[j][std::size_t(i)], spin_times(g5G, S.column[j][std::size_t(i)]));
    return s;
  });
}

std::vector<std::vector<Complex<double>>> current_insertion_conserved(const PointPropagator& S, const PointPropagator& B,
                                                                     const GaugeField<double>& U, double kappa,
                                                                     Complex<double> time_boundary_phase,
                                                                     const std::vector<std::array<int, 3>>& momenta) {
  S.check_pair(B, "three-point function");
  const Geometry& geom = S.geometry;
  if (geom.grid[3] != 1)
    throw Error("the conserved current's three-point function needs the whole time extent on each process (grid t = 1)");
  const LexicographicGauge links = to_box(U);
  const SpinMatrix one = SpinMatrix::identity(), gt = SpinMatrix::gamma(3), g5 = SpinMatrix::gamma(kGamma5);
  SpinMatrix minus, plus;  // gamma_5 (1 - gamma_t), gamma_5 (1 + gamma_t)
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) minus.m[a][b] = one.m[a][b] - gt.m[a][b], plus.m[a][b] = one.m[a][b] + gt.m[a][b];
  minus = g5 * minus;
  plus = g5 * plus;
  const std::int64_t spatial = std::int64_t(geom.local[0]) * geom.local[1] * geom.local[2];
  const int T = geom.local[3];
  return project_to_momenta(geom, S.source, momenta, [&](std::int64_t i, const int* x) {
    const bool wraps = x[3] == T - 1;
    const std::int64_t up = wraps ? i - (T - 1) * spatial : i + spatial;
    const SU3<double>& u = links(i, 3);
    const Complex<double> forward = wraps ? time_boundary_phase : Complex<double>(1), backward = conj(forward);
    Complex<double> s{};
    for (std::size_t j = 0; j < 12; ++j) {
      ColorSpinor<double> hop_up, hop_down;  // U S(y + t), U^dag S(y)
      for (int sp = 0; sp < 4; ++sp) {
        hop_up.s[sp] = forward * (u * S.column[j][std::size_t(up)].s[sp]);
        hop_down.s[sp] = backward * adj_mul(u, S.column[j][std::size_t(i)].s[sp]);
      }
      s += inner(B.column[j][std::size_t(i)], spin_times(minus, hop_up)) -
           inner(B.column[j][std::size_t(up)], spin_times(plus, hop_down));
    }
    return -kappa * s;  // V = -(the bracket): +1 per quark (current_insertion.hpp)
  });
}

}  // namespace lqcd
