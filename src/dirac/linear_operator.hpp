#pragma once
// What a Krylov solver needs of a Dirac operator: apply it and its adjoint to fields of one shape.
// Implemented by the full-lattice operators (subset Full) and the even-odd Schur complements
// (subset Even), in double and in single precision (Real = double, float: the precision of the
// links, the fields and the arithmetic). The solvers layer depends on this interface only.

#include <optional>
#include <utility>

#include "core/geometry.hpp"
#include "core/memory.hpp"
#include "dirac/hopping_part.hpp"
#include "fields/spinor_blas.hpp"
#include "fields/spinor_field.hpp"

namespace lqcd {

template <typename Real>
class LinearOperator {
 public:
  virtual ~LinearOperator() = default;
  virtual void apply(SpinorField<Real>& out, const SpinorField<Real>& in) const = 0;
  virtual void apply_dagger(SpinorField<Real>& out, const SpinorField<Real>& in) const = 0;
  // The fields the operator acts on.
  virtual Subset subset() const = 0;
  virtual const Geometry& geometry() const = 0;
  virtual Location location() const = 0;
  // FLOPs of one apply() per site of its subset (for GFLOPS in logs and benchmarks).
  virtual double flops_per_site() const = 0;

  // out = A in, returning the two fields whose inner product Re <a, b> is Re <in, A in> (CG's
  // <p, A p>): (in, out) by default; an operator that has the number on the way overrides it
  // (NormalOperator: (M in, M in), a norm that reads one field instead of two).
  using InnerPair = std::pair<const SpinorField<Real>*, const SpinorField<Real>*>;
  virtual InnerPair apply_for_inner(SpinorField<Real>& out, const SpinorField<Real>& in) const {
    apply(out, in);
    return {&in, &out};
  }
  // out = A in, returning Re <in, A in> (through apply_for_inner).
  double apply_and_inner(SpinorField<Real>& out, const SpinorField<Real>& in) const {
    const auto [a, b] = apply_for_inner(out, in);
    return a == b ? norm2(*a) : dot(*a, *b).re;
  }

  // A field of the operator's shape (uninitialised).
  SpinorField<Real> make_field() const { return SpinorField<Real>(geometry(), location(), subset()); }

  // The operator's parts where it is a site term plus a multiple of the Wilson hopping term
  // (dirac/hopping_part.hpp); nullopt where the operator does not say (the multigrid then builds its
  // coarse operator by probing and applies its Schwarz blocks through apply()).
  virtual std::optional<WilsonHoppingPart<Real>> hopping_part() const { return std::nullopt; }
};

// An even-odd (Schur) preconditioned operator: acts on even sites, and turns a full-lattice
// right-hand side into its even-site one and an even-site solution back into the full one.
template <typename Real>
class SchurOperator : public LinearOperator<Real> {
 public:
  Subset subset() const override { return Subset::Even; }
  virtual SpinorField<Real> prepare_source(const SpinorField<Real>& b) const = 0;
  virtual SpinorField<Real> reconstruct(const SpinorField<Real>& x_even, const SpinorField<Real>& b) const = 0;
};

// The normal operator M^dag M of an operator M (Hermitian, positive definite for invertible M): what
// the fermion actions of HMC invert. Keeps a reference to M, which must outlive it.
template <typename Real>
class NormalOperator : public LinearOperator<Real> {
 public:
  explicit NormalOperator(const LinearOperator<Real>& M) : M_(M), tmp_(M.make_field()) {}
  void apply(SpinorField<Real>& out, const SpinorField<Real>& in) const override {
    M_.apply(tmp_, in);
    M_.apply_dagger(out, tmp_);
  }
  void apply_dagger(SpinorField<Real>& out, const SpinorField<Real>& in) const override { apply(out, in); }
  // <in, M^dag M in> = ||M in||^2: one field read instead of two.
  typename LinearOperator<Real>::InnerPair apply_for_inner(SpinorField<Real>& out,
                                                           const SpinorField<Real>& in) const override {
    M_.apply(tmp_, in);
    M_.apply_dagger(out, tmp_);
    return {&tmp_, &tmp_};
  }
  Subset subset() const override { return M_.subset(); }
  const Geometry& geometry() const override { return M_.geometry(); }
  Location location() const override { return M_.location(); }
  double flops_per_site() const override { return 2 * M_.flops_per_site(); }

 private:
  const LinearOperator<Real>& M_;
  mutable SpinorField<Real> tmp_;
};

}  // namespace lqcd
