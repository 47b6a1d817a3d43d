#include "measure/meson_correlator.hpp"

#include <cmath>

#include "core/error.hpp"

namespace lqcd {

namespace {

// S(x) as a dense 12x12 matrix, row = sink (spin, colour), column = source (spin, colour).
void site_matrix(const PointPropagator& S, std::size_t x, Complex<double> m[12][12]) {
  for (int col = 0; col < 12; ++col)
    for (int row = 0; row < 12; ++row) m[row][col] = S.column[std::size_t(col)][x].s[row / 3].c[row % 3];
}

}  // namespace

std::vector<std::vector<Complex<double>>> meson_correlator(const PointPropagator& S, const SpinMatrix& g_snk,
                                                           const SpinMatrix& g_src,
                                                           const std::vector<std::array<int, 3>>& momenta) {
  return meson_correlator(S, S, g_snk, g_src, momenta);
}

std::vector<std::vector<Complex<double>>> meson_correlator(const PointPropagator& S, const PointPropagator& S2,
                                                           const SpinMatrix& g_snk, const SpinMatrix& g_src,
                                                           const std::vector<std::array<int, 3>>& momenta) {
  const Dims& n = S.dims;
  const std::int64_t volume = std::int64_t(n[0]) * n[1] * n[2] * n[3];
  if (S2.dims != n || S2.source != S.source) fail("internal: the two propagators of a meson differ in lattice or source");
  for (const auto* P : {&S, &S2})
    for (const auto& c : P->column)
      if (std::int64_t(c.size()) != volume) fail("internal: propagator column of the wrong size");
  const SpinMatrix g5 = SpinMatrix::gamma(kGamma5), gt = SpinMatrix::gamma(3);
  const SpinMatrix gbar = gt * g_src.dagger() * gt;
  // B = Gbar gamma_5 (acts on the source index of S^dag), A = gamma_5 G_snk (acts on its sink index):
  // tr[G S Gbar g5 S^dag g5] = tr[(g5 G) S (Gbar g5) S^dag].
  const SpinMatrix a = g5 * g_snk, b = gbar * g5;
  const int T = n[3];
  std::vector<std::vector<Complex<double>>> corr(momenta.size(), std::vector<Complex<double>>(std::size_t(T)));
  std::vector<std::vector<Complex<double>>> partial;  // per time slice, accumulated in lexicographic order
  for (std::int64_t i = 0; i < volume; ++i) {
    int x[4];
    std::int64_t r = i;
    for (int mu = 0; mu < 4; ++mu) {
      x[mu] = int(r % n[mu]);
      r /= n[mu];
    }
    Complex<double> s[12][12], s2[12][12];
    site_matrix(S, std::size_t(i), s);
    site_matrix(S2, std::size_t(i), s2);
    // tr[A S B S2^dag] = sum_{ij} (A S B)_{ij} conj(S2_{ij})
    Complex<double> asb[12][12];
    for (int row = 0; row < 12; ++row)
      for (int col = 0; col < 12; ++col) {
        Complex<double> acc{};
        const int rs = row / 3, rc = row % 3, cs = col / 3, cc = col % 3;
        for (int k = 0; k < 4; ++k) {
          if (a.m[rs][k].re == 0 && a.m[rs][k].im == 0) continue;
          for (int l = 0; l < 4; ++l) {
            if (b.m[l][cs].re == 0 && b.m[l][cs].im == 0) continue;
            acc += a.m[rs][k] * s[k * 3 + rc][l * 3 + cc] * b.m[l][cs];
          }
        }
        asb[row][col] = acc;
      }
    Complex<double> tr{};
    for (int row = 0; row < 12; ++row)
      for (int col = 0; col < 12; ++col) tr += asb[row][col] * conj(s2[row][col]);
    const int t = ((x[3] - S.source[3]) % T + T) % T;
    for (std::size_t m = 0; m < momenta.size(); ++m) {
      double phase = 0;
      for (int d = 0; d < 3; ++d)
        phase -= 2 * M_PI * momenta[m][std::size_t(d)] * double(x[d] - S.source[std::size_t(d)]) / n[d];
      corr[m][std::size_t(t)] -= Complex<double>(std::cos(phase), std::sin(phase)) * tr;
    }
  }
  return corr;
}

std::vector<double> pion_correlator_from_norms(const PointPropagator& S) {
  const Dims& n = S.dims;
  const int T = n[3];
  const std::int64_t spatial = std::int64_t(n[0]) * n[1] * n[2];
  std::vector<double> c(std::size_t(T), 0.0);
  for (const auto& col : S.column)
    for (std::size_t i = 0; i < col.size(); ++i) {
      const int xt = int(std::int64_t(i) / spatial);
      c[std::size_t(((xt - S.source[3]) % T + T) % T)] += norm2(col[i]);
    }
  return c;
}

}  // namespace lqcd
