#include "dirac/wilson_operator.hpp"

#include "core/dispatch.hpp"
#include "fields/spinor_blas.hpp"

namespace lqcd {

WilsonOperator::WilsonOperator(const GaugeField<double>& U, const WilsonParams& params) : U_(U), params_(params) {
  if (!(params.kappa > 0)) fail("fermion.kappa: must be positive (got {})", params.kappa);
}

void WilsonOperator::run(SpinorField<double>& out, const SpinorField<double>& in, int dagger) const {
  if (in.subset() != Subset::Full || out.subset() != Subset::Full)
    fail("internal: WilsonOperator acts on full-lattice fields");
  if (in.location() != U_.location() || out.location() != U_.location())
    fail("internal: WilsonOperator: fields and links on different devices");
  const double k = params_.kappa;
  const WilsonHoppingKernel kernel{U_.view(), in.view(),  out.view(),       in.view(), params_.boundary,
                                   -k,        1.0,        2.0 * k * params_.mu, 1,     dagger};
  for_each(U_.location(), out.sites(), kernel);
}

void WilsonOperator::apply(SpinorField<double>& out, const SpinorField<double>& in) const { run(out, in, 0); }
void WilsonOperator::apply_dagger(SpinorField<double>& out, const SpinorField<double>& in) const { run(out, in, 1); }

void WilsonOperator::apply_normal(SpinorField<double>& out, const SpinorField<double>& in,
                                  SpinorField<double>& tmp) const {
  run(tmp, in, 0);
  run(out, tmp, 1);
}

void WilsonOperator::apply_mass_form(SpinorField<double>& out, const SpinorField<double>& in) const {
  run(out, in, 0);
  scale(Complex<double>(1.0 / (2.0 * params_.kappa)), out);
}

}  // namespace lqcd
