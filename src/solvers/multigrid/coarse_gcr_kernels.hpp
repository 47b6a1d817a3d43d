#pragma once
// Kernels of the coarse-grid GCR with its scalars on the device (solvers/multigrid/coarse_gcr.hpp): reductions
// hand their sums to finishers (core/reduction.hpp) that store the method's coefficients in a
// CoarseGcrScalars, and the update kernels read them there, so that an iteration needs no host round
// trip except the one for its residual norm.

#include <cfloat>
#include <cstdint>

#include "core/reduction.hpp"
#include "solvers/multigrid/coarse_field_kernels.hpp"

namespace lqcd {

constexpr int kCoarseGcrMaxRestart = 64;

struct CoarseGcrScalars {
  Complex<double> coef[kCoarseGcrMaxRestart];  // -<q_j, q_k> of the current Gram-Schmidt pass
  Complex<double> alpha;                       // <q_k, r>
  double inv_norm;                             // 1 / ||q_k|| (0 at a breakdown)
  double r2;                                   // ||r||^2
  int breakdown;                               // ||q_k|| = 0 or not finite
};

// coef[j0 + j] = -<x_j, y> from a CoarseMultiDotKernel's sums.
struct StoreGcrCoefficients {
  CoarseGcrScalars* s;
  int j0, n;
  LQCD_HOST_DEVICE void operator()(const Sums<2 * kCoarseBatch>& sum) const {
    for (int j = 0; j < n; ++j) s->coef[j0 + j] = Complex<double>(-sum[2 * j], -sum[2 * j + 1]);
  }
};

// y <- y + sum_j coef[j0 + j] x_j, j < n.
template <typename Real>
struct CoarseGcrMultiAxpyKernel {
  const Complex<Real>* x[kCoarseBatch];
  const CoarseGcrScalars* s;
  int j0, n;
  Complex<Real>* y;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    Complex<Real> acc = y[i];
    for (int j = 0; j < n; ++j) {
      const Complex<double> c = s->coef[j0 + j];
      acc = multiply_add(Complex<Real>(Real(c.re), Real(c.im)), x[j][i], acc);
    }
    y[i] = acc;
  }
};

struct StoreGcrInverseNorm {
  CoarseGcrScalars* s;
  LQCD_HOST_DEVICE void operator()(const Sums<1>& sum) const {
    const double n2 = sum[0];
    const bool good = n2 > 0 && n2 <= DBL_MAX;
    s->inv_norm = good ? 1.0 / sqrt(n2) : 0.0;
    if (!good) s->breakdown = 1;  // sticky until the next solve
  }
};

// q <- q / ||q||, z <- z / ||q||.
template <typename Real>
struct CoarseGcrNormaliseKernel {
  Complex<Real>* q;
  Complex<Real>* z;
  const CoarseGcrScalars* s;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const Real f = Real(s->inv_norm);
    q[i] *= f;
    z[i] *= f;
  }
};

struct StoreGcrAlpha {
  CoarseGcrScalars* s;
  LQCD_HOST_DEVICE void operator()(const Sums<2>& sum) const { s->alpha = Complex<double>(sum[0], sum[1]); }
};

// x <- x + alpha z, r <- r - alpha q, summing ||r||^2.
template <typename Real>
struct CoarseGcrUpdateKernel {
  Complex<Real>* x;
  const Complex<Real>* z;
  Complex<Real>* r;
  const Complex<Real>* q;
  const CoarseGcrScalars* s;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<1>& acc) const {
    const Complex<Real> a(Real(s->alpha.re), Real(s->alpha.im));
    x[i] = multiply_add(a, z[i], x[i]);
    const Complex<Real> ri = r[i] - a * q[i];
    r[i] = ri;
    acc[0] += double(ri.re) * double(ri.re) + double(ri.im) * double(ri.im);
  }
};

// r <- b - Ax, summing ||r||^2.
template <typename Real>
struct CoarseGcrResidualKernel {
  const Complex<Real>* b;
  const Complex<Real>* Ax;
  Complex<Real>* r;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<1>& acc) const {
    const Complex<Real> ri = b[i] - Ax[i];
    r[i] = ri;
    acc[0] += double(ri.re) * double(ri.re) + double(ri.im) * double(ri.im);
  }
};

struct StoreGcrResidual {
  CoarseGcrScalars* s;
  LQCD_HOST_DEVICE void operator()(const Sums<1>& sum) const { s->r2 = sum[0]; }
};

}  // namespace lqcd
