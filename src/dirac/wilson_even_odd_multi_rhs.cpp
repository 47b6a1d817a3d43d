#include "dirac/wilson_even_odd_multi_rhs.hpp"

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "dirac/wilson_kernels.hpp"
#include "dirac/wilson_multi_rhs.hpp"

namespace lqcd {

template <typename Real, int LC>
WilsonEvenOddMultiRHS<Real, LC>::WilsonEvenOddMultiRHS(const GaugeField<Real, LC>& U, const WilsonParams& params,
                                                       int rhs)
    : U_(U), params_(params), tmp_odd_(U.geometry(), U.location(), rhs, Subset::Odd) {
  if (!(params.kappa > 0)) fail("fermion.kappa: must be positive (got {})", params.kappa);
}

template <typename Real, int LC>
void WilsonEvenOddMultiRHS<Real, LC>::run(SpinorBlockField<Real>& out, const SpinorBlockField<Real>& in,
                                          int dagger) const {
  if (in.subset() != Subset::Even || out.subset() != Subset::Even)
    fail("internal: WilsonEvenOddMultiRHS acts on even-site blocks");
  const double k = params_.kappa, b = 2.0 * k * params_.mu;
  hop_multi_rhs(U_, tmp_odd_, in, nullptr, params_.boundary, 1.0, 1.0, 0.0, dagger);  // H_oe in
  if (params_.mu != 0) {                                                                // A^{-1} H_oe in
    const double n = 1.0 / (1.0 + b * b);
    const SpinorView<Real> t = tmp_odd_.view().flat;
    for_each(location(), tmp_odd_.sites() * tmp_odd_.rhs(), TwistedSiteKernel<Real>{t, t, n, -b * n, dagger});
  }
  hop_multi_rhs(U_, out, tmp_odd_, &in, params_.boundary, -k * k, 1.0, b, dagger);  // A in - kappa^2 H_eo A^{-1} H_oe in
}

template class WilsonEvenOddMultiRHS<double, 6>;
template class WilsonEvenOddMultiRHS<float, 6>;
template class WilsonEvenOddMultiRHS<Half, 6>;

}  // namespace lqcd
