#include "hmc/rational_approximation.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace lqcd {

namespace {

// The AGM sequence of parameter m: a_j, c_j until c_j is negligible.
void agm(double m, std::vector<double>& a, std::vector<double>& c) {
  a = {1.0};
  c = {std::sqrt(m)};
  double b = std::sqrt(1.0 - m);
  while (std::abs(c.back()) > 1e-17 * a.back() && a.size() < 64) {
    const double an = a.back();
    a.push_back(0.5 * (an + b));
    c.push_back(0.5 * (an - b));
    b = std::sqrt(an * b);
  }
}

}  // namespace

double elliptic_k(double m) {
  std::vector<double> a, c;
  agm(m, a, c);
  return M_PI / (2 * a.back());
}

void jacobi_sn_cn(double u, double m, double& sn, double& cn) {
  std::vector<double> a, c;
  agm(m, a, c);
  const std::size_t n = a.size() - 1;
  double phi = std::ldexp(a[n] * u, int(n));
  for (std::size_t j = n; j >= 1; --j) phi = 0.5 * (phi + std::asin(c[j] / a[j] * std::sin(phi)));
  sn = std::sin(phi);
  cn = std::cos(phi);
}

double RationalApproximation::operator()(double x) const {
  double s = 1;
  for (std::size_t l = 0; l < poles_shift.size(); ++l) s += residues[l] / (x + poles_shift[l]);
  return scale * s;
}

RationalApproximation zolotarev_inverse_sqrt(int degree, double lambda_min, double lambda_max) {
  if (degree < 1 || degree > 64) fail("degree: expected an integer in [1, 64] (got {})", degree);
  if (!(lambda_min > 0) || !std::isfinite(lambda_min))
    fail("lambda_min: expected a positive number (got {})", lambda_min);
  if (!(lambda_max > lambda_min) || !std::isfinite(lambda_max))
    fail("lambda_max: expected a number above lambda_min = {} (got {})", lambda_min, lambda_max);
  RationalApproximation r;
  r.lambda_min = lambda_min;
  r.lambda_max = lambda_max;
  r.degree = degree;
  const double m = 1.0 - lambda_min / lambda_max, K = elliptic_k(m);
  std::vector<double> c(std::size_t(2 * degree + 1));
  for (int j = 1; j <= 2 * degree; ++j) {
    double sn, cn;
    jacobi_sn_cn(j * K / (2 * degree + 1), m, sn, cn);
    c[std::size_t(j)] = sn * sn / (cn * cn);
  }
  for (int l = 1; l <= degree; ++l) {
    r.zeros_shift.push_back(lambda_min * c[std::size_t(2 * l)]);
    r.poles_shift.push_back(lambda_min * c[std::size_t(2 * l - 1)]);
  }
  // Residues of prod (x + a_l) / (x + b_l) = 1 + sum residue_l / (x + b_l) at x = -b_l.
  for (int l = 0; l < degree; ++l) {
    const double x = -r.poles_shift[std::size_t(l)];
    double num = 1, den = 1;
    for (int j = 0; j < degree; ++j) {
      num *= x + r.zeros_shift[std::size_t(j)];
      if (j != l) den *= x + r.poles_shift[std::size_t(j)];
    }
    r.residues.push_back(num / den);
  }
  // The scale that centres sqrt(x) R(x) on 1, the error, and the alternating extrema on a log grid.
  r.scale = 1;
  const int points = 20000;
  std::vector<double> e(points);
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (int i = 0; i < points; ++i) {
    const double x = lambda_min * std::pow(lambda_max / lambda_min, double(i) / (points - 1));
    e[std::size_t(i)] = std::sqrt(x) * r(x);
    lo = std::min(lo, e[std::size_t(i)]);
    hi = std::max(hi, e[std::size_t(i)]);
  }
  r.scale = 2 / (lo + hi);
  r.max_relative_error = (hi - lo) / (hi + lo);
  // Count the alternations: local extrema (and the end points) of e, with alternating sign of e - 1.
  int sign = 0;
  for (int i = 0; i < points; ++i) {
    const double d = r.scale * e[std::size_t(i)] - 1;
    const bool extremum = i == 0 || i == points - 1 ||
                          (e[std::size_t(i)] - e[std::size_t(i - 1)]) * (e[std::size_t(i + 1)] - e[std::size_t(i)]) <= 0;
    if (extremum && std::abs(d) > 0.5 * r.max_relative_error && (d > 0 ? 1 : -1) != sign) {
      sign = d > 0 ? 1 : -1;
      ++r.error_extrema;
    }
  }
  return r;
}

}  // namespace lqcd
