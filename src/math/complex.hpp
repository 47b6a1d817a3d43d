#pragma once
// Complex numbers usable in host and device code (std::complex is not available on the device).
// Layout: {re, im}, aligned to 2*sizeof(T) so that a double complex is one 16-byte vector.

#include <cmath>

#include "core/macros.hpp"

namespace lqcd {

template <typename T>
struct alignas(2 * sizeof(T)) Complex {
  T re;
  T im;

  LQCD_HOST_DEVICE constexpr Complex() : re(0), im(0) {}
  LQCD_HOST_DEVICE constexpr Complex(T r) : re(r), im(0) {}  // NOLINT: implicit real -> complex
  LQCD_HOST_DEVICE constexpr Complex(T r, T i) : re(r), im(i) {}
  template <typename U>
  LQCD_HOST_DEVICE constexpr explicit Complex(const Complex<U>& z) : re(T(z.re)), im(T(z.im)) {}

  LQCD_HOST_DEVICE Complex& operator+=(const Complex& b) { re += b.re; im += b.im; return *this; }
  LQCD_HOST_DEVICE Complex& operator-=(const Complex& b) { re -= b.re; im -= b.im; return *this; }
  LQCD_HOST_DEVICE Complex& operator*=(const Complex& b) {
    const T r = re * b.re - im * b.im;
    im = re * b.im + im * b.re;
    re = r;
    return *this;
  }
  LQCD_HOST_DEVICE Complex& operator*=(T s) { re *= s; im *= s; return *this; }
};

template <typename T>
LQCD_HOST_DEVICE constexpr Complex<T> operator+(Complex<T> a, const Complex<T>& b) { return {a.re + b.re, a.im + b.im}; }
template <typename T>
LQCD_HOST_DEVICE constexpr Complex<T> operator-(Complex<T> a, const Complex<T>& b) { return {a.re - b.re, a.im - b.im}; }
template <typename T>
LQCD_HOST_DEVICE constexpr Complex<T> operator-(const Complex<T>& a) { return {-a.re, -a.im}; }
template <typename T>
LQCD_HOST_DEVICE constexpr Complex<T> operator*(const Complex<T>& a, const Complex<T>& b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <typename T>
LQCD_HOST_DEVICE constexpr Complex<T> operator*(const Complex<T>& a, T s) { return {a.re * s, a.im * s}; }
template <typename T>
LQCD_HOST_DEVICE constexpr Complex<T> operator*(T s, const Complex<T>& a) { return {a.re * s, a.im * s}; }
template <typename T>
LQCD_HOST_DEVICE constexpr Complex<T> conj(const Complex<T>& a) { return {a.re, -a.im}; }
template <typename T>
LQCD_HOST_DEVICE constexpr T norm2(const Complex<T>& a) { return a.re * a.re + a.im * a.im; }
template <typename T>
LQCD_HOST_DEVICE T abs(const Complex<T>& a) { return sqrt(norm2(a)); }
// conj(a) * b without forming conj(a).
template <typename T>
LQCD_HOST_DEVICE constexpr Complex<T> conj_mul(const Complex<T>& a, const Complex<T>& b) {
  return {a.re * b.re + a.im * b.im, a.re * b.im - a.im * b.re};
}
template <typename T>
LQCD_HOST_DEVICE constexpr Complex<T> times_i(const Complex<T>& a) { return {-a.im, a.re}; }

// c + a b, c - a b and c + conj(a) b, written so that each real part is a chain of multiply-adds
// on c: the device compiler fuses x + y z into one FMA, but it does not reorder c + (y z - u v), which
// costs two multiplications, two FMAs and two additions instead of four FMAs. A product summed over a
// colour index (U v, the reconstructed third row of a link) thus takes 4 instructions per term, not 6.
template <typename T>
LQCD_HOST_DEVICE constexpr Complex<T> multiply_add(const Complex<T>& a, const Complex<T>& b, const Complex<T>& c) {
  return {c.re + a.re * b.re - a.im * b.im, c.im + a.re * b.im + a.im * b.re};
}
template <typename T>
LQCD_HOST_DEVICE constexpr Complex<T> multiply_subtract(const Complex<T>& a, const Complex<T>& b,
                                                        const Complex<T>& c) {
  return {c.re - a.re * b.re + a.im * b.im, c.im - a.re * b.im - a.im * b.re};
}
template <typename T>
LQCD_HOST_DEVICE constexpr Complex<T> conj_multiply_add(const Complex<T>& a, const Complex<T>& b,
                                                        const Complex<T>& c) {
  return {c.re + a.re * b.re + a.im * b.im, c.im + a.re * b.im - a.im * b.re};
}

// e^{i angle} for angle in radians. On the device through sincospi: its argument reduction is exact
// and short, where sin/cos keep a slow path for large arguments (Payne-Hanek, with a local-memory
// array) that costs the 8-real link reconstruction registers and stack even when never taken.
template <typename T>
LQCD_HOST_DEVICE inline Complex<T> unit_phase(T angle) {
#ifdef __CUDA_ARCH__
  T s, c;
  sincospi(angle * T(0.318309886183790671537767526745028724), &s, &c);  // 1 / pi
  return {c, s};
#else
  return {std::cos(angle), std::sin(angle)};
#endif
}

}  // namespace lqcd
