#pragma once
// Level-1 linear algebra on spinor fields (the solvers' vector operations), on host or device.
// Reductions are deterministic (fixed chunking, DESIGN.md) and accumulate in double precision.
// FLOPs per site (for the bench): axpy/xpay 48, dot 48, norm2 24 (12 complex components).

#include "fields/spinor_field.hpp"

namespace lqcd {

// y <- a x + y
void axpy(Complex<double> a, const SpinorField<double>& x, SpinorField<double>& y);
// y <- x + a y
void xpay(const SpinorField<double>& x, Complex<double> a, SpinorField<double>& y);
// x <- a x
void scale(Complex<double> a, SpinorField<double>& x);
void set_zero(SpinorField<double>& x);
// <x, y> = sum conj(x) y
Complex<double> dot(const SpinorField<double>& x, const SpinorField<double>& y);
double norm2(const SpinorField<double>& x);

}  // namespace lqcd
