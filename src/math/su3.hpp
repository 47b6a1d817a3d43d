#pragma once
// 3x3 complex matrices (SU(3) links, staples, products of links) for host and device code.
// Row-major: m[row][col], the order of the configuration files.

#include "math/complex.hpp"

namespace lqcd {

template <typename T>
struct SU3 {
  Complex<T> m[3][3];

  LQCD_HOST_DEVICE static constexpr SU3 zero() { return SU3{}; }
  LQCD_HOST_DEVICE static constexpr SU3 identity() {
    SU3 u{};
    u.m[0][0] = u.m[1][1] = u.m[2][2] = Complex<T>(1);
    return u;
  }
  LQCD_HOST_DEVICE Complex<T>& operator()(int r, int c) { return m[r][c]; }
  LQCD_HOST_DEVICE const Complex<T>& operator()(int r, int c) const { return m[r][c]; }

  LQCD_HOST_DEVICE SU3& operator+=(const SU3& b) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) m[i][j] += b.m[i][j];
    return *this;
  }
  LQCD_HOST_DEVICE SU3& operator-=(const SU3& b) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) m[i][j] -= b.m[i][j];
    return *this;
  }
  LQCD_HOST_DEVICE SU3& operator*=(T s) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) m[i][j] *= s;
    return *this;
  }
};

template <typename T>
LQCD_HOST_DEVICE SU3<T> operator+(SU3<T> a, const SU3<T>& b) { return a += b; }
template <typename T>
LQCD_HOST_DEVICE SU3<T> operator-(SU3<T> a, const SU3<T>& b) { return a -= b; }
template <typename T>
LQCD_HOST_DEVICE SU3<T> operator*(SU3<T> a, T s) { return a *= s; }

// a * b
template <typename T>
LQCD_HOST_DEVICE SU3<T> operator*(const SU3<T>& a, const SU3<T>& b) {
  SU3<T> c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Complex<T> s = a.m[i][0] * b.m[0][j];
      s += a.m[i][1] * b.m[1][j];
      s += a.m[i][2] * b.m[2][j];
      c.m[i][j] = s;
    }
  return c;
}

template <typename T>
LQCD_HOST_DEVICE SU3<T> dagger(const SU3<T>& a) {
  SU3<T> c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c.m[i][j] = conj(a.m[j][i]);
  return c;
}

// a * b^dagger, a^dagger * b: the staple and plaquette products without forming the adjoint.
template <typename T>
LQCD_HOST_DEVICE SU3<T> mul_adj(const SU3<T>& a, const SU3<T>& b) {
  SU3<T> c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Complex<T> s = a.m[i][0] * conj(b.m[j][0]);
      s += a.m[i][1] * conj(b.m[j][1]);
      s += a.m[i][2] * conj(b.m[j][2]);
      c.m[i][j] = s;
    }
  return c;
}
template <typename T>
LQCD_HOST_DEVICE SU3<T> adj_mul(const SU3<T>& a, const SU3<T>& b) {
  SU3<T> c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Complex<T> s = conj_mul(a.m[0][i], b.m[0][j]);
      s += conj_mul(a.m[1][i], b.m[1][j]);
      s += conj_mul(a.m[2][i], b.m[2][j]);
      c.m[i][j] = s;
    }
  return c;
}

template <typename T>
LQCD_HOST_DEVICE Complex<T> trace(const SU3<T>& a) { return a.m[0][0] + a.m[1][1] + a.m[2][2]; }
template <typename T>
LQCD_HOST_DEVICE T re_trace(const SU3<T>& a) { return a.m[0][0].re + a.m[1][1].re + a.m[2][2].re; }
// Re tr(a * b) without forming the product (the local-action form Re tr(U A)).
template <typename T>
LQCD_HOST_DEVICE T re_trace_mul(const SU3<T>& a, const SU3<T>& b) {
  T s = 0;
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) s += a.m[i][k].re * b.m[k][i].re - a.m[i][k].im * b.m[k][i].im;
  return s;
}

template <typename T>
LQCD_HOST_DEVICE Complex<T> determinant(const SU3<T>& a) {
  return a.m[0][0] * (a.m[1][1] * a.m[2][2] - a.m[1][2] * a.m[2][1]) -
         a.m[0][1] * (a.m[1][0] * a.m[2][2] - a.m[1][2] * a.m[2][0]) +
         a.m[0][2] * (a.m[1][0] * a.m[2][1] - a.m[1][1] * a.m[2][0]);
}

// Projection back onto SU(3) after updates accumulate rounding: Gram-Schmidt on the first two rows,
// third row = (row0 x row1)^*, which makes det = 1 exactly (up to rounding).
template <typename T>
LQCD_HOST_DEVICE SU3<T> reunitarize(SU3<T> a) {
  T n0 = 0;
  for (int j = 0; j < 3; ++j) n0 += norm2(a.m[0][j]);
  n0 = T(1) / sqrt(n0);
  for (int j = 0; j < 3; ++j) a.m[0][j] *= n0;
  Complex<T> p{};  // <row0, row1>
  for (int j = 0; j < 3; ++j) p += conj_mul(a.m[0][j], a.m[1][j]);
  for (int j = 0; j < 3; ++j) a.m[1][j] -= p * a.m[0][j];
  T n1 = 0;
  for (int j = 0; j < 3; ++j) n1 += norm2(a.m[1][j]);
  n1 = T(1) / sqrt(n1);
  for (int j = 0; j < 3; ++j) a.m[1][j] *= n1;
  a.m[2][0] = conj(a.m[0][1] * a.m[1][2] - a.m[0][2] * a.m[1][1]);
  a.m[2][1] = conj(a.m[0][2] * a.m[1][0] - a.m[0][0] * a.m[1][2]);
  a.m[2][2] = conj(a.m[0][0] * a.m[1][1] - a.m[0][1] * a.m[1][0]);
  return a;
}

// max_ij |(U U^dagger - 1)_ij| + |det U - 1|: how far a link is from SU(3).
template <typename T>
LQCD_HOST_DEVICE T su3_deviation(const SU3<T>& a) {
  const SU3<T> p = mul_adj(a, a);
  T d = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Complex<T> e = p.m[i][j] - Complex<T>(i == j ? T(1) : T(0));
      const T x = sqrt(norm2(e));
      d = x > d ? x : d;
    }
  return d + sqrt(norm2(determinant(a) - Complex<T>(1)));
}

}  // namespace lqcd
