#pragma once
// Level-1 linear algebra on spinor fields (the solvers' vector operations), on host or device, in
// double or single precision (Real = double, float). Scalars are passed in double and rounded to
// the field's precision; reductions are deterministic (fixed chunking, DESIGN.md) and accumulate
// in double precision. FLOPs per site (for the bench): axpy/xpay 48, dot 48, norm2 24 (12 complex
// components).

#include <vector>

#include "fields/spinor_field.hpp"

namespace lqcd {

// y <- a x + y
template <typename Real>
void axpy(Complex<double> a, const SpinorField<Real>& x, SpinorField<Real>& y);
// y <- x + a y
template <typename Real>
void xpay(const SpinorField<Real>& x, Complex<double> a, SpinorField<Real>& y);
// x <- a x
template <typename Real>
void scale(Complex<double> a, SpinorField<Real>& x);
template <typename Real>
void set_zero(SpinorField<Real>& x);
// <x, y> = sum conj(x) y
template <typename Real>
Complex<double> dot(const SpinorField<Real>& x, const SpinorField<Real>& y);
template <typename Real>
double norm2(const SpinorField<Real>& x);
// y <- a x + y, returning ||y||^2 in the same pass (of y as computed, before rounding to its storage
// precision). FLOPs per site: 72.
template <typename Real>
double axpy_norm2(Complex<double> a, const SpinorField<Real>& x, SpinorField<Real>& y);

// x <- x + a p, then p <- z + b p, in one pass. FLOPs per site: 96 (two axpys).
template <typename Real>
void axpy_xpay(Complex<double> a, SpinorField<Real>& p, SpinorField<Real>& x, const SpinorField<Real>& z,
               Complex<double> b);

// The fused operations of BiCGStab (solvers/krylov/bicgstab.cpp), each one pass over memory.
struct DotAndNorm2 {
  Complex<double> dot;  // <x, y>
  double norm2;         // ||x||^2
};
struct Norm2AndDot {
  double norm2;         // ||y||^2
  Complex<double> dot;  // <w, y>
};
// <x, y> and ||x||^2. FLOPs per site: 72.
template <typename Real>
DotAndNorm2 dot_norm2(const SpinorField<Real>& x, const SpinorField<Real>& y);
// z <- a x + b y + z, then y <- c w + y, returning ||y||^2 and <v, y> of y as computed, in one pass:
// BiCGStab's x += alpha p + omega s and r = s - omega t with ||r||^2 and <r0, r>. FLOPs per site: 216.
template <typename Real>
Norm2AndDot axpbypz_axpy_norm2_dot(Complex<double> a, const SpinorField<Real>& x, Complex<double> b,
                                   SpinorField<Real>& y, SpinorField<Real>& z, Complex<double> c,
                                   const SpinorField<Real>& w, const SpinorField<Real>& v);
// y <- y + a z, then y <- x + b y (BiCGStab's p = r + beta (p - omega v)), y rounded to its storage
// precision once. FLOPs per site: 96.
template <typename Real>
void axpy_then_xpay(Complex<double> a, const SpinorField<Real>& z, SpinorField<Real>& y, const SpinorField<Real>& x,
                    Complex<double> b);

// <x_j, y> for every field x_j of x, in one pass over y per kSpinorBatch (8) of them; with y_norm2
// set, also ||y||^2 (from the first pass). Gram-Schmidt's coefficients (solvers/krylov/flexible_gcr.hpp).
// FLOPs per site: 48 per x_j, 24 for the norm.
template <typename Real>
std::vector<Complex<double>> multi_dot(const std::vector<const SpinorField<Real>*>& x, const SpinorField<Real>& y,
                                       double* y_norm2 = nullptr);
// y <- c (y + sum_j a_j x_j), one pass over y per 8 of them (one with none and c != 1). FLOPs per site: 48
// per x_j, 12 for c.
template <typename Real>
void multi_axpy(const std::vector<Complex<double>>& a, const std::vector<const SpinorField<Real>*>& x,
                SpinorField<Real>& y, double c = 1.0);

// out <- in in out's precision (the same sites and location; double -> float rounds to nearest; the
// same precision is a copy).
template <typename To, typename From>
void convert_precision(SpinorField<To>& out, const SpinorField<From>& in);

}  // namespace lqcd
