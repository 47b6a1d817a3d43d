#pragma once
// Kernels of the coarse solves' deflation (solvers/multigrid/coarse_deflation.hpp): k shared vectors u_b, v_b
// (single coarse fields) against fields of n interleaved right-hand sides (solvers/multigrid/coarse_block_field.hpp:
// right-hand side j of element i is i % n; n = 1 for a single field). The coefficients c_bj = <u_b, y_j>
// come from CoarseBlockMultiDotKernel<Real, true> (solvers/multigrid/coarse_block_gcr_kernels.hpp) over 2 kb size
// elements (sum e % (2 kb n) lands at 2 (j kb + b) + part), kb <= kCoarseBatch vectors a launch.

#include <cstdint>

#include "solvers/multigrid/coarse_field_kernels.hpp"
#include "solvers/multigrid/coarse_block_gcr_kernels.hpp"

namespace lqcd {

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
