#pragma once
// What a Krylov solver needs of a Dirac operator: apply it and its adjoint to fields of one shape.
// Implemented by the full-lattice operators (subset Full) and the even-odd Schur complements
// (subset Even). The solvers layer depends on this interface only.

#include "core/geometry.hpp"
#include "core/memory.hpp"
#include "fields/spinor_field.hpp"

namespace lqcd {

class LinearOperator {
 public:
  virtual ~LinearOperator() = default;
  virtual void apply(SpinorField<double>& out, const SpinorField<double>& in) const = 0;
  virtual void apply_dagger(SpinorField<double>& out, const SpinorField<double>& in) const = 0;
  // The fields the operator acts on.
  virtual Subset subset() const = 0;
  virtual const Geometry& geometry() const = 0;
  virtual Location location() const = 0;
  // FLOPs of one apply() per site of its subset (for GFLOPS in logs and benchmarks).
  virtual double flops_per_site() const = 0;

  // A field of the operator's shape (uninitialised).
  SpinorField<double> make_field() const { return SpinorField<double>(geometry(), location(), subset()); }
};

}  // namespace lqcd

namespace lqcd {

// An even-odd (Schur) preconditioned operator: acts on even sites, and turns a full-lattice
// right-hand side into its even-site one and an even-site solution back into the full one.
class SchurOperator : public LinearOperator {
 public:
  Subset subset() const override { return Subset::Even; }
  virtual SpinorField<double> prepare_source(const SpinorField<double>& b) const = 0;
  virtual SpinorField<double> reconstruct(const SpinorField<double>& x_even, const SpinorField<double>& b) const = 0;
};

}  // namespace lqcd
