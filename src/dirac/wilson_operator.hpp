#pragma once
// The Wilson and twisted-mass Dirac operators on the full lattice, in hopping form
//   M = 1 + 2 i kappa mu gamma_5 - kappa H,   kappa = 1 / (2 m0 + 8),
// which is 2 kappa (D_W + m0 + i mu gamma_5) in mass form (DESIGN.md). mu = 0: plain Wilson.
// M^dag = gamma_5 M(-mu) gamma_5. Real = double or float (links, fields and arithmetic).

#include "dirac/linear_operator.hpp"
#include "dirac/wilson_kernels.hpp"
#include "fields/gauge_field.hpp"
#include "fields/spinor_field.hpp"

namespace lqcd {

struct WilsonParams {
  double kappa = 0.125;
  double mu = 0.0;  // twisted mass in the mass form D_W + m0 + i mu gamma_5
  FermionBoundary boundary{{Complex<double>(1), Complex<double>(1), Complex<double>(1), Complex<double>(-1)}};

  double mass() const { return 1.0 / (2.0 * kappa) - 4.0; }  // m0
  static double kappa_of_mass(double m0) { return 1.0 / (2.0 * m0 + 8.0); }
};

template <typename Real>
class WilsonOperator : public LinearOperator<Real> {
 public:
  // The operator keeps a reference to U (no copy): U must outlive it.
  WilsonOperator(const GaugeField<Real>& U, const WilsonParams& params);

  const WilsonParams& params() const { return params_; }
  const GaugeField<Real>& links() const { return U_; }
  const Geometry& geometry() const override { return U_.geometry(); }
  Location location() const override { return U_.location(); }
  Subset subset() const override { return Subset::Full; }
  // Hopping term 1320 (QUDA's count) + the site term and xpay: 48 (Wilson) or 96 (twisted mass).
  double flops_per_site() const override { return 1320 + (params_.mu != 0 ? 96 : 48); }

  // -kappa H on U and the site term (dirac/hopping_part.hpp).
  std::optional<WilsonHoppingPart<Real>> hopping_part() const override {
    return WilsonHoppingPart<Real>{&U_, params_.boundary, -params_.kappa, nullptr, 1.0,
                                   2.0 * params_.kappa * params_.mu};
  }
  void apply(SpinorField<Real>& out, const SpinorField<Real>& in) const override;         // M in
  void apply_dagger(SpinorField<Real>& out, const SpinorField<Real>& in) const override;  // M^dag in
  // M^dag M in; tmp is a work field of the same shape.
  void apply_normal(SpinorField<Real>& out, const SpinorField<Real>& in, SpinorField<Real>& tmp) const;
  // The mass-form operator D_W + m0 + i mu gamma_5 = M / (2 kappa).
  void apply_mass_form(SpinorField<Real>& out, const SpinorField<Real>& in) const;

 private:
  void run(SpinorField<Real>& out, const SpinorField<Real>& in, int dagger) const;
  const GaugeField<Real>& U_;
  WilsonParams params_;
};

}  // namespace lqcd
