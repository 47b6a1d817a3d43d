#pragma once
// Helpers shared by the clover tests: random fields, a rough gauge field, dense 12x12 matrices of
// the clover site term read back through CloverView.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "dirac/clover_field.hpp"
#include "gauge/updates.hpp"
#include "field_test_support.hpp"

namespace lqcd::clover_test {

using test::max_diff;
using test::max_norm;
using test::random_spinor;
using test::rough_gauge;


inline LexicographicSpinor apply_gamma5(LexicographicSpinor v) {
  for (auto& s : v) s = apply_gamma(kGamma5, s);
  return v;
}

// Dense 12x12 complex matrices, index spin * 3 + colour.
using Mat12 = std::array<std::array<Complex<double>, 12>, 12>;

inline Mat12 identity12() {
  Mat12 m{};
  for (int i = 0; i < 12; ++i) m[i][i] = Complex<double>(1);
  return m;
}
inline Mat12 mul(const Mat12& a, const Mat12& b) {
  Mat12 c{};
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j)
      for (int k = 0; k < 12; ++k) c[i][j] += a[i][k] * b[k][j];
  return c;
}
inline Mat12 adjoint(const Mat12& a) {
  Mat12 c{};
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) c[i][j] = conj(a[j][i]);
  return c;
}
inline double max_diff(const Mat12& a, const Mat12& b) {
  double d = 0;
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) d = std::max(d, abs(a[i][j] - b[i][j]));
  return d;
}

// The matrix of A, A^dag, A^{-1} or (A^dag)^{-1} at checkerboard site s of parity p: its columns
// are the images of the 12 unit vectors (host view).
inline Mat12 clover_matrix(const CloverView<double>& v, int p, std::int64_t s, bool inverse, bool dagger) {
  Mat12 m{};
  for (int j = 0; j < 12; ++j) {
    ColorSpinor<double> e{};
    e.s[j / 3].c[j % 3] = Complex<double>(1);
    const ColorSpinor<double> r = inverse ? v.apply_inverse(p, s, e, dagger) : v.apply(p, s, e, dagger);
    for (int i = 0; i < 12; ++i) m[i][j] = r.s[i / 3].c[i % 3];
  }
  return m;
}

// log |det M| of an n x n complex matrix (row-major, n <= 12) by Gaussian elimination with partial
// pivoting; false if singular.
inline bool log_abs_det(std::array<std::array<Complex<double>, 12>, 12> a, int n, double& result) {
  result = 0;
  for (int k = 0; k < n; ++k) {
    int piv = k;
    for (int i = k + 1; i < n; ++i)
      if (abs(a[i][k]) > abs(a[piv][k])) piv = i;
    if (abs(a[piv][k]) == 0) return false;
    std::swap(a[k], a[piv]);
    result += std::log(abs(a[k][k]));
    const Complex<double> inv = conj(a[k][k]) * (1.0 / norm2(a[k][k]));
    for (int i = k + 1; i < n; ++i) {
      const Complex<double> f = a[i][k] * inv;
      for (int j = k; j < n; ++j) a[i][j] -= f * a[k][j];
    }
  }
  return true;
}

}  // namespace lqcd::clover_test
