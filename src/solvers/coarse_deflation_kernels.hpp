#pragma once
// Kernels of the coarse solves' deflation (solvers/coarse_deflation.hpp): k shared vectors u_b, v_b
// (single coarse fields) against fields of n interleaved right-hand sides (fields/coarse_block_field.hpp:
// right-hand side j of element i is i % n; n = 1 for a single field). The coefficients c_bj = <u_b, y_j>
// come from reduce_each_into over 2 kb size elements (e = 2 (i kb + b) + part, so that sum e % (2 kb n)
// lands at 2 (j kb + b) + part, as CoarseBlockMultiDotKernel's), kb <= kCoarseBatch vectors a launch.

#include <cstdint>

#include "fields/coarse_field_kernels.hpp"
#include "solvers/coarse_block_gcr_kernels.hpp"

namespace lqcd {

// <u_b, y_j> for b < kb and every right-hand side j (2 kb n sums).
template <typename Real>
struct CoarseDeflationDotKernel {
  static constexpr std::int64_t kReduceEachMaxBlocks = kCoarseBlockReduceBlocks;
  const Complex<Real>* u[kCoarseBatch];
  const Complex<Real>* y;
  int kb, n;
  LQCD_HOST_DEVICE void operator()(std::int64_t e, double& acc) const {
    const std::int64_t t = e >> 1;
    const std::int64_t i = t / kb;
    const Complex<Real> a = u[t - i * kb][i / n], c = y[i];
    acc += (e & 1) ? double(a.re) * double(c.im) - double(a.im) * double(c.re)
                   : double(a.re) * double(c.re) + double(a.im) * double(c.im);
  }
};

// With c_bj = sums[2 (j kb + b)] (+ i the next): y_j -= sum_b c_bj u_b and w_j += w_sign sum_b c_bj v_b.
template <typename Real>
struct CoarseDeflationAxpyKernel {
  const Complex<Real>* u[kCoarseBatch];
  const Complex<Real>* v[kCoarseBatch];
  Complex<Real>* y;
  Complex<Real>* w;
  const double* sums;
  int kb, n;
  Real w_sign;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const std::int64_t s = i / n;
    const int j = int(i - s * n);
    Complex<Real> ay = y[i], aw = w[i];
    for (int b = 0; b < kb; ++b) {
      const double* c = sums + 2 * (j * kb + b);
      ay = multiply_add(Complex<Real>(Real(-c[0]), Real(-c[1])), u[b][s], ay);
      aw = multiply_add(Complex<Real>(w_sign * Real(c[0]), w_sign * Real(c[1])), v[b][s], aw);
    }
    y[i] = ay;
    w[i] = aw;
  }
};

}  // namespace lqcd
