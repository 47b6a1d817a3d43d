#include "measure/sink_operators.hpp"

#include "core/error.hpp"
#include "measure/sources.hpp"
#include "measure/spin_matrix.hpp"

namespace lqcd {

namespace {

void require_one_process(const Geometry& g, const char* what) {
  if (g.distributed()) throw Error(fmt::format("{} needs the whole lattice on one process (no --grid)", what));
}

// column(x) <- f(column, x, coordinates of x) at every site, for each of S's columns (f reads the old column).
template <typename SiteMap>
void map_sinks(PointPropagator& S, const SiteMap& f) {
  const SiteIndexer idx = SiteIndexer::from(S.geometry);
  for (LexicographicSpinor& column : S.column) {
    const LexicographicSpinor psi = column;
#pragma omp parallel for schedule(static)
    for (std::int64_t s = 0; s < S.geometry.volume(); ++s) {
      int x[4];
      idx.coords_lex(s, x);
      column[std::size_t(s)] = f(psi, s, x);
    }
  }
}

}  // namespace

void rotate_sink(PointPropagator& S, const GaugeField<double>& U, double d1) {
  S.check_columns();
  const Geometry& g = S.geometry;
  require_one_process(g, "the rotated sink");
  const LexicographicGauge links = to_lexicographic(U);
  const SiteIndexer idx = SiteIndexer::from(g);
  const Dims& n = g.global;
  SpinMatrix gamma[3];
  for (int i = 0; i < 3; ++i) gamma[i] = SpinMatrix::gamma(i);
  map_sinks(S, [&](const LexicographicSpinor& psi, std::int64_t s, const int* x) {
    ColorSpinor<double> out = psi[std::size_t(s)];
    for (int i = 0; i < 3; ++i) {
      int up[4] = {x[0], x[1], x[2], x[3]}, down[4] = {x[0], x[1], x[2], x[3]};
      up[i] = (x[i] + 1) % n[std::size_t(i)];
      down[i] = (x[i] - 1 + n[std::size_t(i)]) % n[std::size_t(i)];
      const std::int64_t su = idx.lex(up), sd = idx.lex(down);
      ColorSpinor<double> diff;  // (1/2) [U_i(x) psi(x + i) - U_i(x - i)^dag psi(x - i)]
      for (int sp = 0; sp < 4; ++sp) {
        const auto a = links(s, i) * psi[std::size_t(su)].s[sp];
        const auto b = adj_mul(links(sd, i), psi[std::size_t(sd)].s[sp]);
        for (int c = 0; c < 3; ++c) diff.s[sp].c[c] = 0.5 * (a.c[c] - b.c[c]);
      }
      out -= Complex<double>(d1) * spin_times(gamma[i], diff);
    }
    return out;
  });
}

void wavefunction_sink(PointPropagator& S, double radius) {
  S.check_columns();
  const Geometry& g = S.geometry;
  require_one_process(g, "the wavefunction sink");
  check_source_radius(radius, "the wavefunction sink's radius");
  const SiteIndexer idx = SiteIndexer::from(g);
  const Dims& n = g.global;
  const std::int64_t spatial = std::int64_t(n[0]) * n[1] * n[2];
  map_sinks(S, [&](const LexicographicSpinor& psi, std::int64_t, const int* x) {
    ColorSpinor<double> out{};
    const std::int64_t first = std::int64_t(x[3]) * spatial;  // the slice x_t, t slowest
    for (std::int64_t r = first; r < first + spatial; ++r) {
      int y[4];
      idx.coords_lex(r, y);
      const double w = gaussian_wavefunction(x, {y[0], y[1], y[2], y[3]}, n, radius);
      out += Complex<double>(w) * psi[std::size_t(r)];
    }
    return out;
  });
}

}  // namespace lqcd
