#include "dirac/wilson_operator.hpp"

#include "core/dispatch.hpp"
#include "dirac/face_exchange.hpp"
#include "fields/spinor_blas.hpp"

namespace lqcd {

template <typename Real>
WilsonOperator<Real>::WilsonOperator(const GaugeField<Real>& U, const WilsonParams& params) : U_(U), params_(params) {
  if (!(params.kappa > 0)) fail("kappa: must be positive (got {})", params.kappa);
}

template <typename Real>
void WilsonOperator<Real>::run(SpinorField<Real>& out, const SpinorField<Real>& in, int dagger) const {
  if (in.subset() != Subset::Full || out.subset() != Subset::Full)
    fail("internal: WilsonOperator acts on full-lattice fields");
  if (in.location() != U_.location() || out.location() != U_.location())
    fail("internal: WilsonOperator: fields and links on different devices");
  const double k = params_.kappa;
  const WilsonHoppingKernel<Real> kernel{U_.view(), in.view(),  out.view(),       in.view(), params_.boundary,
                                   -k,        1.0,        2.0 * k * params_.mu, 1,     dagger};
  run_hopping_term(kernel, kernel.U, in, out, params_.boundary, -k, dagger);
}

template <typename Real>
void WilsonOperator<Real>::apply(SpinorField<Real>& out, const SpinorField<Real>& in) const { run(out, in, 0); }
template <typename Real>
void WilsonOperator<Real>::apply_dagger(SpinorField<Real>& out, const SpinorField<Real>& in) const { run(out, in, 1); }

template <typename Real>
void WilsonOperator<Real>::apply_normal(SpinorField<Real>& out, const SpinorField<Real>& in,
                                  SpinorField<Real>& tmp) const {
  run(tmp, in, 0);
  run(out, tmp, 1);
}

template <typename Real>
void WilsonOperator<Real>::apply_mass_form(SpinorField<Real>& out, const SpinorField<Real>& in) const {
  run(out, in, 0);
  scale(Complex<double>(1.0 / (2.0 * params_.kappa)), out);
}

template class WilsonOperator<double>;
template class WilsonOperator<float>;

}  // namespace lqcd
