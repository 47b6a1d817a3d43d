#pragma once
// Level-1 linear algebra on blocks of N right-hand sides (fields/spinor_block_field.hpp), each rhs
// with its own real coefficient: the vector operations of N solvers run in lock step (the multi-RHS
// CG, solvers/krylov/multi_rhs_cg.hpp), one pass over the block where N one-field calls would take N
// launches and N reductions. Blocks hold one parity (Subset Even or Odd) and at most kMaxBlockRhs (32)
// right-hand sides; coefficient spans have one entry per rhs. Sums are per rhs, accumulated in double
// in a fixed order (DESIGN.md), and summed over processes. FLOPs per site and rhs as spinor_blas.hpp.

#include <span>
#include <vector>

#include "fields/spinor_block_field.hpp"

namespace lqcd {

// Most right-hand sides the block operations take: the coefficients travel as kernel arguments.
inline constexpr int kMaxBlockRhs = 32;

template <typename Real>
void set_zero(SpinorBlockField<Real>& x);
// ||x_j||^2 for j = 0..N-1.
template <typename Real>
std::vector<double> norm2_each(const SpinorBlockField<Real>& x);
// y_j <- a_j x_j + y_j
template <typename Real>
void axpy_each(std::span<const double> a, const SpinorBlockField<Real>& x, SpinorBlockField<Real>& y);
// y_j <- x_j - y_j (the residual b - A x from A x)
template <typename Real>
void subtract_from(const SpinorBlockField<Real>& x, SpinorBlockField<Real>& y);
// y_j <- a_j x_j + y_j, returning ||y_j||^2 as computed (before rounding to the storage precision).
template <typename Real>
std::vector<double> axpy_norm2_each(std::span<const double> a, const SpinorBlockField<Real>& x,
                                    SpinorBlockField<Real>& y);
// x_j <- x_j + a_j p_j, then p_j <- z_j + b_j p_j, in one pass.
template <typename Real>
void axpy_xpay_each(std::span<const double> a, SpinorBlockField<Real>& p, SpinorBlockField<Real>& x,
                    const SpinorBlockField<Real>& z, std::span<const double> b);

// The same steps for a stream-resident solver (solvers/krylov/resident_block_cg_kernels.hpp): coefficients
// read from, and per-rhs sums written to, memory of the blocks' location (one double per rhs), the
// sums summed over processes where they are, and the host not waiting for any of it.
template <typename Real>
void norm2_each_into(const SpinorBlockField<Real>& x, double* sums);
template <typename Real>
void axpy_norm2_each_into(const double* a, const SpinorBlockField<Real>& x, SpinorBlockField<Real>& y, double* sums);
template <typename Real>
void axpy_xpay_each(const double* a, SpinorBlockField<Real>& p, SpinorBlockField<Real>& x,
                    const SpinorBlockField<Real>& z, const double* b);
// n per-rhs sums at `sums` (memory of loc) summed over the processes of geom, in place: in the stream
// on the device (an NCCL all-reduce; none is needed on one process), through MPI on the host.
void sum_over_processes(const Geometry& geom, Location loc, double* sums, int n);

// out <- in in out's precision (rounded to nearest; the same shape and location).
template <typename To, typename From>
void convert_precision(SpinorBlockField<To>& out, const SpinorBlockField<From>& in);

}  // namespace lqcd
