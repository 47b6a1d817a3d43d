#include "measure/baryon_correlator.hpp"

#include <cmath>

#include "core/error.hpp"
#include "measure/momentum_projection.hpp"

namespace lqcd {

SpinMatrix charge_conjugation() { return SpinMatrix::gamma(1) * SpinMatrix::gamma(3); }

SpinMatrix parity_projector(int sign) {
  const SpinMatrix one = SpinMatrix::identity(), gt = SpinMatrix::gamma(3);
  SpinMatrix p;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) p.m[i][j] = 0.5 * (one.m[i][j] + double(sign) * gt.m[i][j]);
  return p;
}

BaryonInterpolator BaryonInterpolator::nucleon() {
  return {charge_conjugation() * SpinMatrix::gamma(kGamma5), SpinMatrix::identity()};
}

namespace {

// tr[a b^T] = sum_ij a_ij b_ij
Complex<double> trace_with_transpose(const SpinMatrix& a, const SpinMatrix& b) {
  Complex<double> s{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) s += a.m[i][j] * b.m[i][j];
  return s;
}

// tr[a b]
Complex<double> trace_of_product(const SpinMatrix& a, const SpinMatrix& b) {
  Complex<double> s{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) s += a.m[i][j] * b.m[j][i];
  return s;
}

// The propagator at box site x as colour blocks: block[a][a'].m[rho][rho'] = S^{aa'}_{rho rho'}(x).
void colour_blocks(const PointPropagator& S, std::size_t x, SpinMatrix block[3][3]) {
  for (int col = 0; col < 12; ++col)
    for (int row = 0; row < 12; ++row) block[row % 3][col % 3].m[row / 3][col / 3] = S.column[std::size_t(col)][x].s[row / 3].c[row % 3];
}

// The six permutations (a, b, c) of (0, 1, 2) with the sign of eps_abc.
constexpr int kPermutations[6][4] = {{0, 1, 2, 1}, {1, 2, 0, 1}, {2, 0, 1, 1}, {0, 2, 1, -1}, {2, 1, 0, -1}, {1, 0, 2, -1}};

}  // namespace

std::vector<std::vector<Complex<double>>> baryon_correlator(const PointPropagator& Q, const PointPropagator& R,
                                                            const BaryonInterpolator& op, const SpinMatrix& projector,
                                                            const std::vector<std::array<int, 3>>& momenta,
                                                            Complex<double> time_boundary_phase) {
  const Geometry& geom = Q.geometry;
  const Complex<double> wrapped = time_boundary_phase * time_boundary_phase * time_boundary_phase;
  Q.check_pair(R, "baryon");
  const SpinMatrix gt = SpinMatrix::gamma(3);
  const SpinMatrix g = op.diquark, ghat = gt * g.dagger() * gt.transpose();
  // tr[P G' X Ghat'] = tr[(Ghat' P G') X]
  const SpinMatrix outer = gt * op.outer.dagger() * gt * projector * op.outer;
  // f(x) = tr[P G(x)], with the boundary phase on slices before the source's (measure/momentum_projection.hpp).
  return project_to_momenta(geom, Q.source, momenta, [&](std::int64_t i, const int* x) {
    SpinMatrix q[3][3], r[3][3], m[3][3];
    colour_blocks(Q, std::size_t(i), q);
    colour_blocks(R, std::size_t(i), r);
    Complex<double> direct[3][3];  // tr[(Ghat' P G') Q^{cc'}]
    for (int c = 0; c < 3; ++c)
      for (int cp = 0; cp < 3; ++cp) {
        m[c][cp] = g * r[c][cp] * ghat;  // M^{bb'} = G R^{bb'} Ghat
        direct[c][cp] = trace_of_product(outer, q[c][cp]);
      }
    Complex<double> site{};
    for (const auto& s : kPermutations)
      for (const auto& sp : kPermutations) {
        const int a = s[0], b = s[1], c = s[2], ap = sp[0], bp = sp[1], cp = sp[2];
        // G R G^hat contracted with Q^{aa'} (the first term's diquark) and the exchange term
        // tr[(Ghat' P G') Q^{ca'} M^T Q^{ac'}].
        const Complex<double> first = trace_with_transpose(m[b][bp], q[a][ap]) * direct[c][cp];
        const Complex<double> exchange = trace_of_product(outer * q[c][ap] * m[b][bp].transpose(), q[a][cp]);
        site += double(s[3] * sp[3]) * (first - exchange);
      }
    return x[3] < Q.source[3] ? site * wrapped : site;
  });
}

}  // namespace lqcd
