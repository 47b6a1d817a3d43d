#pragma once
// The exponential of i times a Hermitian 3x3 matrix: the molecular-dynamics link update and stout
// smearing.

#include <cmath>

#include "math/su3.hpp"

namespace lqcd {

// exp(i X) for Hermitian X: scaling and squaring, exp(i X) = exp(i X / 2^k)^(2^k) with k such that
// ||X|| / 2^k <= 1/2 (||X|| bounded by 3 max |X_ij|), and a Taylor series of degree 16 by Horner's rule
// for the scaled matrix (truncation below 1e-20). Molecular-dynamics steps normally have k = 0; a large
// step (an unstable integration) still gives a unitary link, so dH reports it instead of NaN.
LQCD_HOST_DEVICE inline SU3<double> exp_i(const SU3<double>& x) {
  double norm = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const double a = sqrt(norm2(x.m[i][j]));
      norm = a > norm ? a : norm;
    }
  norm *= 3;
  int k = 0;
  double scale = 1;
  while (norm * scale > 0.5 && k < 60) {
    scale *= 0.5;
    ++k;
  }
  SU3<double> ix;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) ix.m[i][j] = Complex<double>(-x.m[i][j].im * scale, x.m[i][j].re * scale);
  SU3<double> r = SU3<double>::identity();
  for (int n = 16; n >= 1; --n) {
    r = ix * r;
    r *= 1.0 / n;
    r += SU3<double>::identity();
  }
  for (int n = 0; n < k; ++n) r = r * r;
  return r;
}

}  // namespace lqcd
