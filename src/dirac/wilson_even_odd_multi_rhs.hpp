#pragma once
// The even-odd (Schur) Wilson / twisted-mass operator of wilson_even_odd.hpp on N right-hand sides at
// once: M_hat = A - kappa^2 H_eo A^{-1} H_oe on a block of even-site fields, with the multi-RHS
// hopping term (wilson_multi_rhs.hpp), which loads each link once for all N. Every rhs gets what
// WilsonEvenOddOperator gives on it (the same site functions). Single process only; built for 12-real
// links in double, single and half precision and 18-real links in double (the multi-RHS kernel's
// instantiations).

#include "dirac/block_operator.hpp"
#include "dirac/wilson_operator.hpp"
#include "fields/gauge_field.hpp"

namespace lqcd {

template <typename Real, int LinkComponents = 6>
class WilsonEvenOddMultiRHS : public BlockOperator<Real> {
 public:
  // Keeps a reference to U, which must outlive the operator.
  WilsonEvenOddMultiRHS(const GaugeField<Real, LinkComponents>& U, const WilsonParams& params, int rhs);

  void apply(SpinorBlockField<Real>& out, const SpinorBlockField<Real>& in) const override { run(out, in, 0); }
  void apply_dagger(SpinorBlockField<Real>& out, const SpinorBlockField<Real>& in) const override {
    run(out, in, 1);
  }
  // Fused: the last hopping term carries the norms / the axpy (hop_multi_rhs_norm2), so neither M p nor
  // M^dag M p takes a pass of its own.
  std::vector<double> apply_norm2(SpinorBlockField<Real>& out, const SpinorBlockField<Real>& in) const override;
  std::vector<double> apply_dagger_axpy_norm2(std::span<const double> a, const SpinorBlockField<Real>& in,
                                              SpinorBlockField<Real>& y) const override;
  void apply_norm2_into(SpinorBlockField<Real>& out, const SpinorBlockField<Real>& in, double* sums) const override;
  void apply_dagger_axpy_norm2_into(const double* a, const SpinorBlockField<Real>& in, SpinorBlockField<Real>& y,
                                    double* sums) const override;
  Subset subset() const override { return Subset::Even; }
  const Geometry& geometry() const override { return U_.geometry(); }
  Location location() const override { return U_.location(); }
  int rhs() const override { return tmp_odd_.rhs(); }
  // As WilsonEvenOddOperator::flops_per_site, per rhs.
  double flops_per_site() const override { return params_.mu != 0 ? 2 * 1320 + 72 + 96 : 2 * 1320 + 48; }

 private:
  void run(SpinorBlockField<Real>& out, const SpinorBlockField<Real>& in, int dagger) const;
  // tmp_odd_ = A^{-1} H_oe in ((A^dag)^{-1} H^dag with dagger): the first half of M_hat.
  void odd_part(const SpinorBlockField<Real>& in, int dagger) const;
  // The second half's hopping term: A in - kappa^2 H_eo tmp_odd_ (its coefficients).
  double alpha() const { return -params_.kappa * params_.kappa; }
  double c5() const { return 2.0 * params_.kappa * params_.mu; }

  const GaugeField<Real, LinkComponents>& U_;
  WilsonParams params_;
  mutable SpinorBlockField<Real> tmp_odd_;
};

}  // namespace lqcd
