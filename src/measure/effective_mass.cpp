#include "measure/effective_mass.hpp"

#include <cmath>
#include <limits>

namespace lqcd {

std::vector<double> log_effective_mass(const std::vector<double>& c) {
  std::vector<double> m;
  for (std::size_t t = 0; t + 1 < c.size(); ++t) {
    const double r = c[t] / c[t + 1];
    m.push_back(r > 0 ? std::log(r) : std::numeric_limits<double>::quiet_NaN());
  }
  return m;
}

std::vector<double> cosh_effective_mass(const std::vector<double>& c) { return cosh_effective_mass(c, int(c.size())); }

std::vector<double> cosh_effective_mass(const std::vector<double>& c, int T) {
  const double half = double(T) / 2;
  std::vector<double> m;
  for (std::size_t t = 0; t + 1 < c.size(); ++t) {
    const double r = c[t] / c[t + 1];
    const double a = double(t) - half, b = double(t) + 1 - half;
    // f(m) = cosh(m a) / cosh(m b) is monotonic in m > 0 for t + 1 <= T/2 (|a| > |b|); bisection.
    auto f = [&](double mass) { return std::cosh(mass * a) / std::cosh(mass * b); };
    if (!(r > 1.0) || !(double(t) + 1 <= half) || !(r < f(20.0))) {
      m.push_back(std::numeric_limits<double>::quiet_NaN());
      continue;
    }
    double lo = 0, hi = 20;
    for (int it = 0; it < 200; ++it) {
      const double mid = 0.5 * (lo + hi);
      (f(mid) < r ? lo : hi) = mid;
    }
    m.push_back(0.5 * (lo + hi));
  }
  return m;
}

}  // namespace lqcd
