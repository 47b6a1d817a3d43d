#include "measure/meson_correlator.hpp"

#include <cmath>

#include "comm/communicator.hpp"
#include "core/error.hpp"
#include "fields/global_order.hpp"
#include "measure/momentum_projection.hpp"

namespace lqcd {

namespace {

// S(x) as a dense 12x12 matrix, row = sink (spin, colour), column = source (spin, colour).
void site_matrix(const PointPropagator& S, std::size_t x, Complex<double> m[12][12]) {
  for (int col = 0; col < 12; ++col)
    for (int row = 0; row < 12; ++row) m[row][col] = S.column[std::size_t(col)][x].s[row / 3].c[row % 3];
}

}  // namespace

void PointPropagator::check_columns() const {
  for (const auto& c : column)
    if (std::int64_t(c.size()) != geometry.volume())
      fail("internal: propagator column of {} sites for a box of {}", c.size(), geometry.volume());
}

void PointPropagator::check_pair(const PointPropagator& other, const char* hadron) const {
  if (!(other.geometry == geometry) || other.source != source)
    fail("internal: the two propagators of a {} differ in lattice, process box or source", hadron);
  check_columns();
  other.check_columns();
}

std::vector<std::vector<Complex<double>>> meson_correlator(const PointPropagator& S, const SpinMatrix& g_snk,
                                                           const SpinMatrix& g_src,
                                                           const std::vector<std::array<int, 3>>& momenta) {
  return meson_correlator(S, S, g_snk, g_src, momenta);
}

std::vector<std::vector<Complex<double>>> meson_correlator(const PointPropagator& S, const PointPropagator& S2,
                                                           const SpinMatrix& g_snk, const SpinMatrix& g_src,
                                                           const std::vector<std::array<int, 3>>& momenta) {
  const Geometry& geom = S.geometry;
  S.check_pair(S2, "meson");
  const SpinMatrix g5 = SpinMatrix::gamma(kGamma5), gt = SpinMatrix::gamma(3);
  const SpinMatrix gbar = gt * g_src.dagger() * gt;
  // B = Gbar gamma_5 (acts on the source index of S^dag), A = gamma_5 G_snk (acts on its sink index):
  // tr[G S Gbar g5 S^dag g5] = tr[(g5 G) S (Gbar g5) S^dag].
  const SpinMatrix a = g5 * g_snk, b = gbar * g5;
  // f(x) = -tr[A S(x) B S2(x)^dag], summed per time slice and momentum (measure/momentum_projection.hpp).
  return project_to_momenta(geom, S.source, momenta, [&](std::int64_t i, const int*) {
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
    return Complex<double>() - tr;
  });
}

std::vector<double> pion_correlator_from_norms(const PointPropagator& S) {
  const Geometry& geom = S.geometry;
  S.check_columns();
  const int T = geom.global[3];
  const std::int64_t spatial = std::int64_t(geom.local[0]) * geom.local[1] * geom.local[2];
  std::vector<double> c(std::size_t(T), 0.0);
  for (const auto& col : S.column)
    for (std::size_t i = 0; i < col.size(); ++i) {
      const int xt = int(std::int64_t(i) / spatial) + geom.offset[3];
      c[std::size_t(((xt - S.source[3]) % T + T) % T)] += norm2(col[i]);
    }
  comm::sum(geom.grid, std::span<double>(c));
  return c;
}

std::array<LexicographicSpinor, 12> gather_propagator_on_root(const PointPropagator& S) {
  S.check_columns();
  std::array<LexicographicSpinor, 12> whole;
  for (std::size_t col = 0; col < 12; ++col) whole[col] = gather_global_on_root(S.column[col], S.geometry, 1);
  return whole;
}

}  // namespace lqcd
