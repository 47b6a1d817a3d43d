#include "measure/gevp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/dense_linear_algebra.hpp"
#include "core/error.hpp"

namespace lqcd {

namespace {
// The Hermitian part, column-major.
std::vector<Complex<double>> hermitian_part(const std::vector<Complex<double>>& c, int n) {
  std::vector<Complex<double>> h(std::size_t(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      h[std::size_t(i) + std::size_t(j) * n] = 0.5 * (c[std::size_t(i) * n + j] + conj(c[std::size_t(j) * n + i]));
  return h;
}
}  // namespace

GevpResult solve_gevp(const std::vector<std::vector<Complex<double>>>& values, int n, int t0) {
  const int nt = int(values.size());
  if (n < 1) fail("gevp: no operators");
  if (t0 < 0 || t0 >= nt) fail("gevp: t0 = {} outside 0..{}", t0, nt - 1);
  for (const auto& c : values)
    if (c.size() != std::size_t(n) * n) fail("gevp: a correlator matrix is not {} x {}", n, n);
  GevpResult r;
  r.t0 = t0;
  r.n = n;
  const std::vector<Complex<double>> reference = hermitian_part(values[std::size_t(t0)], n);
  for (int t = 0; t < nt; ++t) {
    std::vector<Complex<double>> a = hermitian_part(values[std::size_t(t)], n), b = reference;
    std::vector<double> w = generalized_hermitian_eigensystem(n, a.data(), b.data(), "gevp");
    // lambda_n = e^{-E_n (t - t0)}: the ground state has the largest eigenvalue after t0, the smallest before.
    if (t > t0) std::reverse(w.begin(), w.end());
    r.lambda.push_back(w);
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int t = 0; t + 1 < nt; ++t) {
    std::vector<double> e(std::size_t(n), nan);
    for (int k = 0; k < n; ++k) {
      const double x = r.lambda[std::size_t(t)][std::size_t(k)], y = r.lambda[std::size_t(t) + 1][std::size_t(k)];
      if (x > 0 && y > 0) e[std::size_t(k)] = std::log(x / y);
    }
    r.effective_energy.push_back(e);
  }
  return r;
}

}  // namespace lqcd
