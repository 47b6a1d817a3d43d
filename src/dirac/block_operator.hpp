#pragma once
// What a multi-right-hand-side solver (solvers/krylov/multi_rhs_cg.hpp) needs of a Dirac operator: apply it
// and its adjoint to a block of N right-hand sides at once (fields/spinor_block_field.hpp), each rhs
// exactly as the one-field operator (LinearOperator) would, but with every link loaded once for all N.

#include "core/geometry.hpp"
#include "core/memory.hpp"
#include <span>
#include <vector>

#include "fields/spinor_block_blas.hpp"
#include "fields/spinor_block_field.hpp"

namespace lqcd {

template <typename Real>
class BlockOperator {
 public:
  virtual ~BlockOperator() = default;
  virtual void apply(SpinorBlockField<Real>& out, const SpinorBlockField<Real>& in) const = 0;
  virtual void apply_dagger(SpinorBlockField<Real>& out, const SpinorBlockField<Real>& in) const = 0;
  virtual Subset subset() const = 0;
  virtual const Geometry& geometry() const = 0;
  virtual Location location() const = 0;
  virtual int rhs() const = 0;
  // FLOPs of one apply() per site of its subset and per right-hand side.
  virtual double flops_per_site() const = 0;

  // The CG steps with their sums (multi_rhs_cg.cpp), which an operator may fuse into its last pass:
  // out = M in, returning ||out_j||^2 (<p, M^dag M p> = ||M p||^2) ...
  virtual std::vector<double> apply_norm2(SpinorBlockField<Real>& out, const SpinorBlockField<Real>& in) const {
    apply(out, in);
    return norm2_each(out);
  }
  // ... and y_j <- y_j + a_j (M^dag in)_j, returning ||y_j||^2 (the residual update r -= alpha M^dag M p).
  virtual std::vector<double> apply_dagger_axpy_norm2(std::span<const double> a, const SpinorBlockField<Real>& in,
                                                      SpinorBlockField<Real>& y) const {
    SpinorBlockField<Real> t = make_block();
    apply_dagger(t, in);
    return axpy_norm2_each(a, t, y);
  }

  // The same two steps for a stream-resident solver (solvers/krylov/resident_block_cg_kernels.hpp): the
  // coefficients a_j read from, and the sums written to, memory of the operator's location, the host
  // not waiting for them.
  virtual void apply_norm2_into(SpinorBlockField<Real>& out, const SpinorBlockField<Real>& in, double* sums) const {
    apply(out, in);
    norm2_each_into(out, sums);
  }
  virtual void apply_dagger_axpy_norm2_into(const double* a, const SpinorBlockField<Real>& in,
                                            SpinorBlockField<Real>& y, double* sums) const {
    SpinorBlockField<Real> t = make_block();
    apply_dagger(t, in);
    axpy_norm2_each_into(a, t, y, sums);
  }

  // A block of the operator's shape (uninitialised).
  SpinorBlockField<Real> make_block() const { return SpinorBlockField<Real>(geometry(), location(), rhs(), subset()); }
};

}  // namespace lqcd
