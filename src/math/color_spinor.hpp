#pragma once
// Colour vectors (3 complex) and colour spinors (4 spins x 3 colours) for host and device code.
// Spin index first: psi.s[spin].c[colour], the order of the propagator files and of QUDA's
// interface.

#include "math/su3.hpp"

namespace lqcd {

template <typename T>
struct ColorVector {
  Complex<T> c[3];

  LQCD_HOST_DEVICE ColorVector& operator+=(const ColorVector& o) {
    for (int i = 0; i < 3; ++i) c[i] += o.c[i];
    return *this;
  }
  LQCD_HOST_DEVICE ColorVector& operator-=(const ColorVector& o) {
    for (int i = 0; i < 3; ++i) c[i] -= o.c[i];
    return *this;
  }
};

template <typename T>
LQCD_HOST_DEVICE ColorVector<T> operator+(ColorVector<T> a, const ColorVector<T>& b) { return a += b; }
template <typename T>
LQCD_HOST_DEVICE ColorVector<T> operator-(ColorVector<T> a, const ColorVector<T>& b) { return a -= b; }
template <typename T>
LQCD_HOST_DEVICE ColorVector<T> operator*(const Complex<T>& z, const ColorVector<T>& a) {
  ColorVector<T> r;
  for (int i = 0; i < 3; ++i) r.c[i] = z * a.c[i];
  return r;
}
template <typename T>
LQCD_HOST_DEVICE ColorVector<T> times_i(const ColorVector<T>& a) {
  ColorVector<T> r;
  for (int i = 0; i < 3; ++i) r.c[i] = times_i(a.c[i]);
  return r;
}

// U v and U^dagger v.
template <typename T>
LQCD_HOST_DEVICE ColorVector<T> operator*(const SU3<T>& u, const ColorVector<T>& v) {
  ColorVector<T> r;
  for (int i = 0; i < 3; ++i) {
    r.c[i] = multiply_add(u.m[i][2], v.c[2], multiply_add(u.m[i][1], v.c[1], u.m[i][0] * v.c[0]));
  }
  return r;
}
template <typename T>
LQCD_HOST_DEVICE ColorVector<T> adj_mul(const SU3<T>& u, const ColorVector<T>& v) {
  ColorVector<T> r;
  for (int i = 0; i < 3; ++i) {
    r.c[i] = conj_multiply_add(u.m[2][i], v.c[2], conj_multiply_add(u.m[1][i], v.c[1], conj_mul(u.m[0][i], v.c[0])));
  }
  return r;
}

template <typename T>
struct ColorSpinor {
  ColorVector<T> s[4];

  LQCD_HOST_DEVICE ColorSpinor& operator+=(const ColorSpinor& o) {
    for (int i = 0; i < 4; ++i) s[i] += o.s[i];
    return *this;
  }
  LQCD_HOST_DEVICE ColorSpinor& operator-=(const ColorSpinor& o) {
    for (int i = 0; i < 4; ++i) s[i] -= o.s[i];
    return *this;
  }
  LQCD_HOST_DEVICE ColorSpinor& operator*=(const Complex<T>& z) {
    for (int i = 0; i < 4; ++i)
      for (int c = 0; c < 3; ++c) s[i].c[c] *= z;
    return *this;
  }
};

template <typename T>
LQCD_HOST_DEVICE ColorSpinor<T> operator+(ColorSpinor<T> a, const ColorSpinor<T>& b) { return a += b; }
template <typename T>
LQCD_HOST_DEVICE ColorSpinor<T> operator-(ColorSpinor<T> a, const ColorSpinor<T>& b) { return a -= b; }
template <typename T>
LQCD_HOST_DEVICE ColorSpinor<T> operator*(const Complex<T>& z, ColorSpinor<T> a) { return a *= z; }

// <a, b> = sum conj(a) b over spin and colour.
template <typename T>
LQCD_HOST_DEVICE Complex<T> inner(const ColorSpinor<T>& a, const ColorSpinor<T>& b) {
  Complex<T> r{};
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 3; ++c) r += conj_mul(a.s[i].c[c], b.s[i].c[c]);
  return r;
}
template <typename T>
LQCD_HOST_DEVICE T norm2(const ColorSpinor<T>& a) {
  T r = 0;
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 3; ++c) r += norm2(a.s[i].c[c]);
  return r;
}

}  // namespace lqcd
