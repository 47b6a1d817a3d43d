#pragma once
// Element kernels of the coarse-field vector operations (solvers/multigrid/coarse_field.hpp): element i is
// component i % dof of site i / dof; scalars in the field's precision, sums in double.

#include "core/reduction.hpp"
#include "solvers/multigrid/coarse_field.hpp"

namespace lqcd {

template <typename Real>
struct CoarseAxpyKernel {  // y <- a x + y
  Complex<Real> a;
  const Complex<Real>* x;
  Complex<Real>* y;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const { y[i] = multiply_add(a, x[i], y[i]); }
};

template <typename Real>
struct CoarseAxpyNorm2Kernel {  // y <- a x + y, summing |y|^2
  Complex<Real> a;
  const Complex<Real>* x;
  Complex<Real>* y;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<1>& acc) const {
    const Complex<Real> v = multiply_add(a, x[i], y[i]);
    y[i] = v;
    acc[0] += double(v.re) * double(v.re) + double(v.im) * double(v.im);
  }
};

template <typename Real>
struct CoarseScaleKernel {  // x <- a x
  Complex<Real> a;
  Complex<Real>* x;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const { x[i] = a * x[i]; }
};

template <typename Real>
struct CoarseZeroKernel {
  Complex<Real>* x;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const { x[i] = Complex<Real>(); }
};

template <typename Real>
struct CoarseDotKernel {  // sum conj(x) y
  const Complex<Real>* x;
  const Complex<Real>* y;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<2>& acc) const {
    const double xr = x[i].re, xi = x[i].im, yr = y[i].re, yi = y[i].im;
    acc[0] += xr * yr + xi * yi;
    acc[1] += xr * yi - xi * yr;
  }
};

template <typename Real>
struct CoarseNorm2Kernel {
  const Complex<Real>* x;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<1>& acc) const {
    acc[0] += double(x[i].re) * double(x[i].re) + double(x[i].im) * double(x[i].im);
  }
};

// Batched Gram-Schmidt (gcr_orthogonalise): up to kCoarseBatch vectors per launch.
constexpr int kCoarseBatch = 8;

template <typename Real>
struct CoarseMultiDotKernel {  // sums 2j, 2j + 1: <x_j, y>, j < n
  const Complex<Real>* x[kCoarseBatch];
  const Complex<Real>* y;
  int n;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<2 * kCoarseBatch>& acc) const {
    const double yr = y[i].re, yi = y[i].im;
    for (int j = 0; j < n; ++j) {
      const double xr = x[j][i].re, xi = x[j][i].im;
      acc[2 * j] += xr * yr + xi * yi;
      acc[2 * j + 1] += xr * yi - xi * yr;
    }
  }
};

template <typename Real>
struct CoarseMultiAxpyKernel {  // y <- y + sum_j a_j x_j, j < n
  const Complex<Real>* x[kCoarseBatch];
  Complex<Real> a[kCoarseBatch];
  Complex<Real>* y;
  int n;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    Complex<Real> acc = y[i];
    for (int j = 0; j < n; ++j) acc = multiply_add(a[j], x[j][i], acc);
    y[i] = acc;
  }
};

template <typename To, typename From>
struct CoarseConvertKernel {
  Complex<To>* out;
  const Complex<From>* in;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const { out[i] = Complex<To>(in[i]); }
};

}  // namespace lqcd
