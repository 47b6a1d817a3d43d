#pragma once
// What a multi-right-hand-side solver (solvers/multi_rhs_cg.hpp) needs of a Dirac operator: apply it
// and its adjoint to a block of N right-hand sides at once (fields/spinor_block_field.hpp), each rhs
// exactly as the one-field operator (LinearOperator) would, but with every link loaded once for all N.

#include "core/geometry.hpp"
#include "core/memory.hpp"
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

  // A block of the operator's shape (uninitialised).
  SpinorBlockField<Real> make_block() const { return SpinorBlockField<Real>(geometry(), location(), rhs(), subset()); }
};

}  // namespace lqcd
