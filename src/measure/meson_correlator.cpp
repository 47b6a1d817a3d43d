#include "measure/meson_correlator.hpp"

#include <cmath>

#include "comm/communicator.hpp"
#include "core/error.hpp"
#include "fields/global_order.hpp"

namespace lqcd {

namespace {

// S(x) as a dense 12x12 matrix, row = sink (spin, colour), column = source (spin, colour).
void site_matrix(const PointPropagator& S, std::size_t x, Complex<double> m[12][12]) {
  for (int col = 0; col < 12; ++col)
    for (int row = 0; row < 12; ++row) m[row][col] = S.column[std::size_t(col)][x].s[row / 3].c[row % 3];
}

void check_columns(const PointPropagator& S) {
  for (const auto& c : S.column)
    if (std::int64_t(c.size()) != S.geometry.volume())
      fail("internal: propagator column of {} sites for a box of {}", c.size(), S.geometry.volume());
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
  const Geometry& geom = S.geometry;
  const Dims& n = geom.global;
  if (!(S2.geometry == geom) || S2.source != S.source)
    fail("internal: the two propagators of a meson differ in lattice, process box or source");
  check_columns(S);
  check_columns(S2);
  const SpinMatrix g5 = SpinMatrix::gamma(kGamma5), gt = SpinMatrix::gamma(3);
  const SpinMatrix gbar = gt * g_src.dagger() * gt;
  // B = Gbar gamma_5 (acts on the source index of S^dag), A = gamma_5 G_snk (acts on its sink index):
  // tr[G S Gbar g5 S^dag g5] = tr[(g5 G) S (Gbar g5) S^dag].
  const SpinMatrix a = g5 * g_snk, b = gbar * g5;
  const int T = n[3];
  // corr[m][t], complex, contiguous: this box's time slices accumulated in its lexicographic order,
  // then summed over the processes (the other boxes add zero where they hold no site of a slice).
  std::vector<Complex<double>> corr(momenta.size() * std::size_t(T));
  const SiteIndexer idx = SiteIndexer::from(geom);
  // One thread per time slice of the box (sites are lexicographic, t slowest): each slice adds its
  // sites in lexicographic order, as one thread would, so the sums do not depend on the thread count,
  // and no two threads write one entry of corr.
  const std::int64_t spatial = std::int64_t(geom.local[0]) * geom.local[1] * geom.local[2];
  const auto add_site = [&](std::int64_t i) {
    int x[4];
    idx.coords_lex(i, x);
    for (int mu = 0; mu < 4; ++mu) x[mu] += geom.offset[mu];  // global coordinates
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
      corr[m * std::size_t(T) + std::size_t(t)] -= Complex<double>(std::cos(phase), std::sin(phase)) * tr;
    }
  };
#pragma omp parallel for schedule(dynamic, 1)
  for (int lt = 0; lt < geom.local[3]; ++lt)
    for (std::int64_t i = lt * spatial; i < (lt + 1) * spatial; ++i) add_site(i);
  static_assert(sizeof(Complex<double>) == 2 * sizeof(double));
  comm::sum(geom.grid, std::span<double>(reinterpret_cast<double*>(corr.data()), 2 * corr.size()));
  std::vector<std::vector<Complex<double>>> out(momenta.size());
  for (std::size_t m = 0; m < momenta.size(); ++m)
    out[m].assign(corr.begin() + std::ptrdiff_t(m * std::size_t(T)), corr.begin() + std::ptrdiff_t((m + 1) * std::size_t(T)));
  return out;
}

std::vector<double> pion_correlator_from_norms(const PointPropagator& S) {
  const Geometry& geom = S.geometry;
  check_columns(S);
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
  check_columns(S);
  std::array<LexicographicSpinor, 12> whole;
  for (std::size_t col = 0; col < 12; ++col) whole[col] = gather_global_on_root(S.column[col], S.geometry, 1);
  return whole;
}

}  // namespace lqcd
