#pragma once
// Kernels of the multi-RHS coarse GCR (solvers/multigrid/coarse_block_gcr.hpp): N independent GCR(m) iterations
// on the right-hand sides of a block (solvers/multigrid/coarse_block_field.hpp, right-hand side j of element i is
// i % N), every coefficient per right-hand side in device memory. Reductions give one sum per
// right-hand side (core/dispatch.hpp, reduce_each_into: element e adds to sum e % n), so a complex dot
// product runs over 2 x size elements (e = 2 i + part) and the batched Gram-Schmidt over
// 2 x nb x size (e = 2 (i nb + b) + part): sum e % n then lands at 2 (j nb + b) + part.

#include <cfloat>
#include <cstdint>

#include "solvers/multigrid/coarse_block_field.hpp"
#include "solvers/multigrid/coarse_field_kernels.hpp"

namespace lqcd {

// The grid cap of these reductions on the device (core/exec_cuda.cuh, reduce_each_max_blocks): their
// elements are single complex numbers, so one element per thread would write as many partial sums as
// elements (37 million for the Gram-Schmidt of 12 right-hand sides on an 8^4 x 48 coarse lattice).
constexpr std::int64_t kCoarseBlockReduceBlocks = 2048;

// The state of one right-hand side's GCR, read by the host once per iteration.
struct CoarseBlockGcrState {
  double r2 = 0;        // ||r||^2
  double target2 = 0;   // tolerance^2 ||b||^2
  double inv_norm = 0;  // 1 / ||q_k||
  int active = 0;       // 1 while it iterates: x and r change only while active
  int breakdown = 0;    // ||q_k|| = 0 or not finite (sticky for the solve)
};

// x_k = 0 for every component.
template <typename Real>
struct CoarseBlockZeroKernel {
  Complex<Real>* x;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const { x[i] = Complex<Real>(); }
};

// Per right-hand side: ||x||^2 (n = N sums).
template <typename Real>
struct CoarseBlockNorm2Kernel {
  static constexpr std::int64_t kReduceEachMaxBlocks = kCoarseBlockReduceBlocks;
  const Complex<Real>* x;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, double& acc) const {
    acc += double(x[i].re) * double(x[i].re) + double(x[i].im) * double(x[i].im);
  }
};

// Per right-hand side: <x_b, y> for b < nb (n = 2 N nb sums, element e = 2 (i nb + b) + part). With
// SharedX the x_b are single coarse fields shared by the N right-hand sides (element i of y reads
// component i / n of x_b; the coarse deflation's vectors), else block fields like y.
template <typename Real, bool SharedX = false>
struct CoarseBlockMultiDotKernel {
  static constexpr std::int64_t kReduceEachMaxBlocks = kCoarseBlockReduceBlocks;
  const Complex<Real>* x[kCoarseBatch];
  const Complex<Real>* y;
  int nb;
  int n = 1;  // right-hand sides (SharedX only)
  LQCD_HOST_DEVICE void operator()(std::int64_t e, double& acc) const {
    const std::int64_t t = e >> 1;
    const std::int64_t i = t / nb;
    const Complex<Real> a = x[t - i * nb][SharedX ? i / n : i], c = y[i];
    acc += (e & 1) ? double(a.re) * double(c.im) - double(a.im) * double(c.re)
                   : double(a.re) * double(c.re) + double(a.im) * double(c.im);
  }
};

// Per active right-hand side j: q_k -= sum_b <q_b, q_k> q_b and z_k -= the same combination of z_b, the
// dot products from CoarseBlockMultiDotKernel's sums (b < nb: the batch's j0 + b).
template <typename Real>
struct CoarseBlockGcrMultiAxpyKernel {
  const Complex<Real>* xq[kCoarseBatch];
  const Complex<Real>* xz[kCoarseBatch];
  Complex<Real>* q;
  Complex<Real>* z;
  const double* sums;
  const CoarseBlockGcrState* state;
  int nb, n;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int j = int(i % n);
    if (!state[j].active) return;
    Complex<Real> aq = q[i], az = z[i];
    for (int b = 0; b < nb; ++b) {
      const double* s = sums + 2 * (j * nb + b);
      const Complex<Real> c(Real(-s[0]), Real(-s[1]));
      aq = multiply_add(c, xq[b][i], aq);
      az = multiply_add(c, xz[b][i], az);
    }
    q[i] = aq;
    z[i] = az;
  }
};

// From ||q_k||^2 per right-hand side: inv_norm, and a breakdown ends that right-hand side's iteration.
// One thread per right-hand side.
struct CoarseBlockGcrInverseNormKernel {
  const double* sums;
  CoarseBlockGcrState* state;
  LQCD_HOST_DEVICE void operator()(std::int64_t j) const {
    const double n2 = sums[j];
    const bool good = n2 > 0 && n2 <= DBL_MAX;
    state[j].inv_norm = good ? 1.0 / sqrt(n2) : 0.0;
    if (!good && state[j].active) {
      state[j].active = 0;
      state[j].breakdown = 1;
    }
  }
};

// q_k, z_k /= ||q_k|| on the active right-hand sides.
template <typename Real>
struct CoarseBlockGcrNormaliseKernel {
  Complex<Real>* q;
  Complex<Real>* z;
  const CoarseBlockGcrState* state;
  int n;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const CoarseBlockGcrState& s = state[i % n];
    if (!s.active) return;
    const Real f = Real(s.inv_norm);
    q[i] *= f;
    z[i] *= f;
  }
};

// With alpha = <q_k, r> (sums 2 j, 2 j + 1; 0 where the right-hand side is not active):
// x += alpha z_k, r -= alpha q_k, summing ||r||^2 per right-hand side (n = N sums).
template <typename Real>
struct CoarseBlockGcrUpdateKernel {
  static constexpr std::int64_t kReduceEachMaxBlocks = kCoarseBlockReduceBlocks;
  Complex<Real>* x;
  const Complex<Real>* z;
  Complex<Real>* r;
  const Complex<Real>* q;
  const double* alpha;
  const CoarseBlockGcrState* state;
  int n;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, double& acc) const {
    const int j = int(i % n);
    Complex<Real> ri = r[i];
    if (state[j].active) {
      const Complex<Real> a(static_cast<Real>(alpha[2 * j]), static_cast<Real>(alpha[2 * j + 1]));
      x[i] = multiply_add(a, z[i], x[i]);
      ri = ri - a * q[i];
      r[i] = ri;
    }
    acc += double(ri.re) * double(ri.re) + double(ri.im) * double(ri.im);
  }
};

// Minimal-residual steps on a block (CoarseBlockGcr::minimal_residual_steps), per right-hand side j:
// <A r, r> and ||A r||^2 in one pass (n = 3 N sums, element e = 3 i + part: sum 3 j + part).
template <typename Real>
struct CoarseBlockMrSumsKernel {
  static constexpr std::int64_t kReduceEachMaxBlocks = kCoarseBlockReduceBlocks;
  const Complex<Real>* Ar;
  const Complex<Real>* r;
  LQCD_HOST_DEVICE void operator()(std::int64_t e, double& acc) const {
    const std::int64_t i = e / 3;
    const int part = int(e - 3 * i);
    const Complex<Real> a = Ar[i], c = r[i];
    acc += part == 0   ? double(a.re) * double(c.re) + double(a.im) * double(c.im)
           : part == 1 ? double(a.re) * double(c.im) - double(a.im) * double(c.re)
                       : double(a.re) * double(a.re) + double(a.im) * double(a.im);
  }
};

// The step itself: alpha = <A r, r> / ||A r||^2, x += alpha r, r -= alpha A r; a column whose A r
// vanishes (r = 0: solved, or a zero right-hand side) or is not finite stays as it is.
template <typename Real>
struct CoarseBlockMrUpdateKernel {
  Complex<Real>* x;
  Complex<Real>* r;
  const Complex<Real>* Ar;
  const double* sums;
  int n;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const double* s = sums + 3 * (i % n);
    if (!(s[2] > 0) || !(s[2] <= DBL_MAX)) return;
    const Complex<Real> a(static_cast<Real>(s[0] / s[2]), static_cast<Real>(s[1] / s[2]));
    const Complex<Real> ri = r[i];
    x[i] = multiply_add(a, ri, x[i]);
    r[i] = ri - a * Ar[i];
  }
};

// out = a - b (a residual b - A x, or the image A z = r - (r - A z) of a correction).
template <typename Real>
struct CoarseBlockDifferenceKernel {
  Complex<Real>* out;
  const Complex<Real>* a;
  const Complex<Real>* b;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const { out[i] = a[i] - b[i]; }
};

// r = b - A x, summing ||r||^2 per right-hand side.
template <typename Real>
struct CoarseBlockGcrResidualKernel {
  static constexpr std::int64_t kReduceEachMaxBlocks = kCoarseBlockReduceBlocks;
  const Complex<Real>* b;
  const Complex<Real>* Ax;
  Complex<Real>* r;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, double& acc) const {
    const Complex<Real> ri = b[i] - Ax[i];
    r[i] = ri;
    acc += double(ri.re) * double(ri.re) + double(ri.im) * double(ri.im);
  }
};

// r2 from the sums; a right-hand side stops at its target. With restart (after the true residual) a
// right-hand side above its target iterates again unless it broke down. One thread per right-hand side.
struct CoarseBlockGcrResidualStateKernel {
  const double* sums;
  CoarseBlockGcrState* state;
  int restart;
  LQCD_HOST_DEVICE void operator()(std::int64_t j) const {
    CoarseBlockGcrState& s = state[j];
    s.r2 = sums[j];
    const bool above = !(s.r2 <= s.target2);
    s.active = (restart ? !s.breakdown : s.active) && above && s.r2 <= DBL_MAX ? 1 : 0;
  }
};

}  // namespace lqcd
