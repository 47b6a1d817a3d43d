#pragma once
// The Krylov methods' complex scalar arithmetic and breakdown test, shared by the host loops and the
// stream-resident cycles' finishers on the device (BiCGStab: bicgstab.cpp, resident_bicgstab_kernels.hpp).
// Both must round alike for the two to give the same iterates bit for bit, so every product and sum
// is rounded on its own: on the device through the __d*_rn intrinsics, which the compiler never
// contracts into fused multiply-adds (it would contract a * b + c written plainly), and on the host by
// compiling the files that use them with -ffp-contract=off (CMakeLists.txt). Division and sqrt are
// IEEE-rounded on both.

#include <cfloat>

#include "core/macros.hpp"
#include "math/complex.hpp"

namespace lqcd::solver_detail {

// The relative size under which BiCGStab's inner products and GCR's new direction count as a
// breakdown (|<a, b>| <= eps ||a|| ||b||).
inline constexpr double kBreakdownEps = 1e-13;

LQCD_HOST_DEVICE inline double mul_rn(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
LQCD_HOST_DEVICE inline double add_rn(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
LQCD_HOST_DEVICE inline double sub_rn(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dsub_rn(a, b);
#else
  return a - b;
#endif
}

// a * b
LQCD_HOST_DEVICE inline Complex<double> times_rn(Complex<double> a, Complex<double> b) {
  return {sub_rn(mul_rn(a.re, b.re), mul_rn(a.im, b.im)), add_rn(mul_rn(a.re, b.im), mul_rn(a.im, b.re))};
}
LQCD_HOST_DEVICE inline double norm2_rn(Complex<double> a) { return add_rn(mul_rn(a.re, a.re), mul_rn(a.im, a.im)); }
// a / b = conj(b) a / |b|^2
LQCD_HOST_DEVICE inline Complex<double> divide_rn(Complex<double> a, Complex<double> b) {
  const double s = 1.0 / norm2_rn(b);
  const Complex<double> c{add_rn(mul_rn(b.re, a.re), mul_rn(b.im, a.im)),
                          sub_rn(mul_rn(b.re, a.im), mul_rn(b.im, a.re))};
  return {mul_rn(c.re, s), mul_rn(c.im, s)};
}

// |<a, b>| <= eps ||a|| ||b||, or not finite (ab = <a, b>, a2 = ||a||^2, b2 = ||b||^2).
LQCD_HOST_DEVICE inline bool negligible(Complex<double> ab, double a2, double b2) {
  const double m = sqrt(norm2_rn(ab));
  return !(m <= DBL_MAX) || m <= mul_rn(kBreakdownEps, sqrt(mul_rn(a2, b2)));
}

// beta = (rho' / rho) (alpha / omega), the new direction's coefficient.
LQCD_HOST_DEVICE inline Complex<double> bicgstab_beta(Complex<double> rho_new, Complex<double> rho,
                                                      Complex<double> alpha, Complex<double> omega) {
  return times_rn(divide_rn(rho_new, rho), divide_rn(alpha, omega));
}

// omega = <t, s> / <t, t>
LQCD_HOST_DEVICE inline Complex<double> bicgstab_omega(Complex<double> ts, double tt) {
  const double s = 1.0 / tt;
  return {mul_rn(ts.re, s), mul_rn(ts.im, s)};
}

}  // namespace lqcd::solver_detail
