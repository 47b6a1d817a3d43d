#pragma once
// Random and rough fields for the Dirac, smearing and solver tests, and the differences they are
// compared by. Tests assert properties that hold for any such input.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/site_random.hpp"
#include "dirac/linear_operator.hpp"
#include "solvers/multigrid/coarse_field.hpp"
#include "fields/spinor_blas.hpp"
#include "fields/spinor_field.hpp"
#include "gauge/update_kernels.hpp"
#include "gauge/updates.hpp"
#include "test_support.hpp"

namespace lqcd::test {

// x in precision To (a copy when the precisions agree).
template <typename To, typename From>
SpinorField<To> converted(const SpinorField<From>& x) {
  SpinorField<To> y(x.geometry(), x.location(), x.subset());
  if constexpr (std::is_same_v<To, From>) y.copy_from(x);
  else convert_precision(y, x);
  return y;
}

// ||b - M x|| / ||b||, computed without the solver.
inline double relative_residual(const LinearOperator<double>& M, const SpinorField<double>& x,
                                const SpinorField<double>& b) {
  SpinorField<double> r = M.make_field();
  M.apply(r, x);
  axpy(Complex<double>(-1.0), b, r);
  return std::sqrt(norm2(r) / norm2(b));
}

// Gaussian random spinor (host, lexicographic); `stream` separates the uses of one seed.
inline LexicographicSpinor random_spinor(const Geometry& g, std::uint64_t seed, std::uint32_t stream = 7) {
  LexicographicSpinor v(std::size_t(g.volume()));
  for (std::size_t i = 0; i < v.size(); ++i) {
    SiteRandom rng(seed, i, RngPurpose::Test, stream, 0);
    for (auto& sp : v[i].s)
      for (auto& z : sp.c) {
        z.re = rng.gaussian();  // sequenced: argument evaluation order is unspecified
        z.im = rng.gaussian();
      }
  }
  return v;
}

inline double max_diff(const LexicographicSpinor& a, const LexicographicSpinor& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (int s = 0; s < 4; ++s)
      for (int c = 0; c < 3; ++c) d = std::max(d, abs(a[i].s[s].c[c] - b[i].s[s].c[c]));
  return d;
}

inline double max_norm(const LexicographicSpinor& a) {
  double m = 0;
  for (const auto& s : a) m = std::max(m, std::sqrt(norm2(s)));
  return m;
}

// N random fields of precision Real on `subset` (seeds first_seed, first_seed + 1, ...).
template <typename Real>
std::vector<SpinorField<Real>> random_fields(const Geometry& g, Location loc, Subset subset, int n,
                                             std::uint64_t first_seed) {
  std::vector<SpinorField<Real>> v;
  for (int j = 0; j < n; ++j) {
    const SpinorField<double> full = to_spinor_field(random_spinor(g, first_seed + std::uint64_t(j)), g, loc);
    v.push_back(converted<Real>(subset == Subset::Full ? full.clone(loc) : full.parity_part(subset == Subset::Odd)));
  }
  return v;
}

// Hot start + one Wilson-action heatbath sweep: a rough field far from the unit one.
inline GaugeField<double> rough_gauge(const Geometry& g, Location loc, std::uint64_t seed = 17, double beta = 5.5) {
  GaugeField<double> U(g, loc);
  set_hot_gauge(U, seed);
  heatbath_sweep(U, GaugeAction::from_name("wilson", beta), seed, 0);
  return U;
}

// The largest entry difference over all links of two fields; NaN when any difference is NaN (a plain
// std::max would skip it).
inline double max_link_difference(const LexicographicGauge& a, const LexicographicGauge& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.links.size(); ++i) {
    const double x = max_abs_diff(a.links[i], b.links[i]);
    if (!(x <= d)) d = x;
  }
  return d;
}

// psi(x) -> g(x) psi(x) with the g(x) that random_gauge_transformation(U, seed) draws on U's lattice:
// the other side of a gauge-covariance check, M[U^g] (g psi) = g (M[U] psi).
inline LexicographicSpinor gauge_rotate(LexicographicSpinor v, const GaugeField<double>& U, std::uint64_t seed) {
  const RandomGaugeTransformKernel g{U.view(), seed};
  const SiteIndexer idx = SiteIndexer::from(U.geometry());
  for (std::int64_t i = 0; i < U.geometry().volume(); ++i) {
    int x[4];
    idx.coords_lex(i, x);
    const SU3<double> gx = g.g_at(x);
    for (auto& s : v[std::size_t(i)].s) s = gx * s;
  }
  return v;
}

// ||a - b|| / ||b||.
inline double relative_difference(const SpinorField<double>& a, const SpinorField<double>& b) {
  SpinorField<double> d = a.clone(a.location());
  axpy(Complex<double>(-1.0), b, d);
  return std::sqrt(norm2(d) / norm2(b));
}

// A coarse field with Gaussian random components (host-generated, copied to loc).
inline CoarseField<double> random_coarse(const CoarseLattice& lat, int dof, Location loc, std::uint64_t seed) {
  CoarseField<double> h(lat, dof, Location::Host);
  for (std::int64_t i = 0; i < h.size(); ++i) {
    SiteRandom rng(seed, std::uint64_t(i), RngPurpose::Test, 3, 0);
    h.view().data[i] = Complex<double>(rng.gaussian(), rng.gaussian());
  }
  return h.clone(loc);
}

// Largest |a - b| over the components (0 when equal bit for bit up to the sign of zero).
template <typename Real>
double largest_difference(const CoarseField<Real>& a, const CoarseField<Real>& b) {
  const CoarseField<Real> ah = a.clone(Location::Host), bh = b.clone(Location::Host);
  double worst = 0;
  for (std::int64_t i = 0; i < ah.size(); ++i)
    worst = std::max(worst, double(abs(ah.view().data[i] - bh.view().data[i])));
  return worst;
}

}  // namespace lqcd::test
