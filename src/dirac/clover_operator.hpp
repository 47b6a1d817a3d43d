#pragma once
// The Wilson-clover (and twisted-clover) Dirac operator on the full lattice, in hopping form
//   M = A - kappa H,   A = 1 + 2 kappa c_sw (i/4) sum_{mu,nu} sigma_{mu nu} F_{mu nu} + 2 i kappa mu gamma_5,
// which is 2 kappa (D_W + m0 + c_sw (i/4) sigma.F + i mu gamma_5) in mass form, kappa = 1 / (2 m0 + 8)
// (DESIGN.md; B. Sheikholeslami, R. Wohlert, Nucl. Phys. B 259 (1985) 572). H is the Wilson hopping
// term of wilson_kernels.hpp. M^dag = A^dag - kappa H^dag = gamma_5 M(-mu) gamma_5.
// apply_clover / apply_clover_inverse / hop are the pieces of even-odd preconditioning: they act on
// full-lattice fields or on one parity. Real = double or float; the single-precision operator is made
// from a double one (its clover field rounded from the double-precision one).

#include "dirac/clover_field.hpp"
#include "dirac/linear_operator.hpp"
#include "dirac/wilson_operator.hpp"

namespace lqcd {

template <typename Real>
class WilsonCloverOperator : public LinearOperator<Real> {
 public:
  // Keeps a reference to U (no copy): U must outlive the operator. Builds the clover field on U's
  // location; call update() after the links change. trace_kept: MILC's field strength
  // (clover_kernels.hpp, clover_hermitian_blocks). hop_links (not null): the hops on those links instead of
  // U (they must outlive the operator; update() does not touch them); boundary: open boundaries in time
  // (dirac/quark_time_boundary.hpp; hop_links are then quark_hopping_links(U, boundary)).
  WilsonCloverOperator(const GaugeField<double>& U, const WilsonParams& params, double csw, bool trace_kept = false,
                       const GaugeField<double>* hop_links = nullptr, const QuarkTimeBoundary& boundary = {})
    requires std::is_same_v<Real, double>;
  // The single-precision copy of M on U_single (M's links in single precision, which must outlive
  // the operator). Made again, not updated, when the links change.
  WilsonCloverOperator(const GaugeField<float>& U_single, const WilsonCloverOperator<double>& M)
    requires std::is_same_v<Real, float>;

  const WilsonParams& params() const { return params_; }
  double csw() const { return clover_.csw(); }
  const CloverField<Real>& clover() const { return clover_; }
  const GaugeField<Real>& links() const { return U_; }
  void update()
    requires std::is_same_v<Real, double>
  {
    clover_.compute();
  }
  // The single-precision copy brought up to M again, in place, after the caller has copied M's new
  // links into U_single (a multigrid built on this operator keeps working on the new links).
  void update_from(const WilsonCloverOperator<double>& M)
    requires std::is_same_v<Real, float>
  {
    clover_.assign(M.clover());
  }

  const Geometry& geometry() const override { return U_.geometry(); }
  Location location() const override { return U_.location(); }
  Subset subset() const override { return Subset::Full; }
  // Hopping term 1320 + clover term 552 (QUDA's counts) + the sum and scaling 48.
  double flops_per_site() const override { return 1320 + 552 + 48; }

  // -kappa H on U and the site term (dirac/hopping_part.hpp).
  std::optional<WilsonHoppingPart<Real>> hopping_part() const override {
    return WilsonHoppingPart<Real>{&U_, params_.boundary, -params_.kappa, &clover_};
  }
  void apply(SpinorField<Real>& out, const SpinorField<Real>& in) const override;         // M in
  void apply_dagger(SpinorField<Real>& out, const SpinorField<Real>& in) const override;  // M^dag in
  // The mass-form operator M / (2 kappa).
  void apply_mass_form(SpinorField<Real>& out, const SpinorField<Real>& in) const;

  // out = A in (A^dag in with dagger) on the sites out holds (full lattice or one parity; in holds
  // the same sites and may be out).
  void apply_clover(SpinorField<Real>& out, const SpinorField<Real>& in, bool dagger = false) const;
  // out = A^{-1} in ((A^dag)^{-1} in with dagger), likewise.
  void apply_clover_inverse(SpinorField<Real>& out, const SpinorField<Real>& in, bool dagger = false) const;
  // out = alpha H in + A x (H^dag and A^dag with dagger) on the sites out holds; x == nullptr: out =
  // alpha H in. Parity fields: in is of the other parity (or full), x of out's parity (or full).
  // Full out: in and x full. E.g. out_e = A x_e - kappa H_eo in_o with alpha = -kappa.
  void hop(SpinorField<Real>& out, const SpinorField<Real>& in, const SpinorField<Real>* x, double alpha,
           bool dagger = false) const;

 private:
  const GaugeField<Real>& U_;
  WilsonParams params_;
  CloverField<Real> clover_;
};

}  // namespace lqcd
