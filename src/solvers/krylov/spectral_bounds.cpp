#include "solvers/krylov/spectral_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "fields/spinor_blas.hpp"

namespace lqcd {

namespace {

// How many eigenvalues of the symmetric tridiagonal (a, b) are below x: the sign changes of the
// Sturm sequence d_0 = a_0 - x, d_i = a_i - x - b_{i-1}^2 / d_{i-1} (negative d_i, counted).
int eigenvalues_below(const std::vector<double>& a, const std::vector<double>& b, double x) {
  int count = 0;
  double d = 1;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d = a[i] - x - (i > 0 ? b[i - 1] * b[i - 1] / d : 0.0);
    if (d == 0) d = -1e-300;  // x on an eigenvalue of a leading block: perturb, as LAPACK's dstebz does
    if (d < 0) ++count;
  }
  return count;
}

// The k-th smallest eigenvalue (k = 1 .. n) by bisection in Gershgorin's interval [lo, hi].
double tridiagonal_eigenvalue(const std::vector<double>& a, const std::vector<double>& b, int k, double lo,
                              double hi) {
  for (int it = 0; it < 200 && hi - lo > 1e-15 * std::max(std::abs(lo), std::abs(hi)); ++it) {
    const double mid = 0.5 * (lo + hi);
    (eigenvalues_below(a, b, mid) >= k ? hi : lo) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

SpectralBounds lanczos_extremes(const LinearOperator<double>& A, const SpinorField<double>& start, int iterations) {
  if (iterations < 1) fail("lanczos_extremes: expected at least one iteration (got {})", iterations);
  const double start_norm = std::sqrt(norm2(start));
  if (!(start_norm > 0) || !std::isfinite(start_norm)) fail("lanczos_extremes: the start vector is zero or not finite");
  SpinorField<double> v = start.clone(start.location()), v_prev = A.make_field(), w = A.make_field();
  scale(Complex<double>(1 / start_norm), v);
  set_zero(v_prev);
  std::vector<double> alpha, beta;
  double b_prev = 0;
  for (int j = 0; j < iterations; ++j) {
    A.apply(w, v);
    const double a = dot(v, w).re;
    alpha.push_back(a);
    axpy(Complex<double>(-a), v, w);
    axpy(Complex<double>(-b_prev), v_prev, w);
    const double b = std::sqrt(norm2(w));
    // An invariant subspace (b ~ 0 on the scale of A): T_j's eigenvalues are exact eigenvalues of A.
    if (j + 1 == iterations || !(b > 1e-14 * std::abs(a))) break;
    beta.push_back(b);
    std::swap(v_prev, v);  // v_prev <- v, v <- w / b
    v.copy_from(w);
    scale(Complex<double>(1 / b), v);
    b_prev = b;
  }
  // Gershgorin: every eigenvalue of T lies in the union of [a_i - r_i, a_i + r_i].
  double lo = alpha[0], hi = alpha[0];
  for (std::size_t i = 0; i < alpha.size(); ++i) {
    const double r = (i > 0 ? beta[i - 1] : 0.0) + (i < beta.size() ? beta[i] : 0.0);
    lo = std::min(lo, alpha[i] - r);
    hi = std::max(hi, alpha[i] + r);
  }
  SpectralBounds s;
  s.iterations = int(alpha.size());
  s.lambda_min = tridiagonal_eigenvalue(alpha, beta, 1, lo, hi);
  s.lambda_max = tridiagonal_eigenvalue(alpha, beta, s.iterations, lo, hi);
  return s;
}

}  // namespace lqcd
