#include "dirac/wilson_even_odd.hpp"

#include "core/dispatch.hpp"

namespace lqcd {

WilsonEvenOddOperator::WilsonEvenOddOperator(const GaugeField<double>& U, const WilsonParams& params)
    : U_(U), params_(params), tmp_odd_(U.geometry(), U.location(), Subset::Odd) {
  if (!(params.kappa > 0)) fail("fermion.kappa: must be positive (got {})", params.kappa);
}

void WilsonEvenOddOperator::hop(SpinorField<double>& out, const SpinorField<double>& in, const SpinorField<double>* x,
                                double alpha, double c5, int dagger) const {
  const WilsonHoppingKernel k{U_.view(), in.view(), out.view(), x ? x->view() : out.view(), params_.boundary,
                              alpha,     1.0,       c5,         x ? 1 : 0,                  dagger};
  for_each(U_.location(), out.sites(), k);
}

void WilsonEvenOddOperator::site_inverse(SpinorField<double>& out, const SpinorField<double>& in, int dagger) const {
  const double b = 2.0 * params_.kappa * params_.mu, n = 1.0 / (1.0 + b * b);
  for_each(U_.location(), out.sites(), TwistedSiteKernel{in.view(), out.view(), n, -b * n, dagger});
}

void WilsonEvenOddOperator::run(SpinorField<double>& out, const SpinorField<double>& in, int dagger) const {
  if (in.subset() != Subset::Even || out.subset() != Subset::Even)
    fail("internal: WilsonEvenOddOperator acts on even-site fields");
  const double k = params_.kappa;
  hop(tmp_odd_, in, nullptr, 1.0, 0.0, dagger);                       // H_oe in
  site_inverse(tmp_odd_, tmp_odd_, dagger);                            // A^{-1} H_oe in (site-local: in place)
  hop(out, tmp_odd_, &in, -k * k, 2.0 * k * params_.mu, dagger);      // A in - kappa^2 H_eo A^{-1} H_oe in
}

void WilsonEvenOddOperator::apply(SpinorField<double>& out, const SpinorField<double>& in) const { run(out, in, 0); }
void WilsonEvenOddOperator::apply_dagger(SpinorField<double>& out, const SpinorField<double>& in) const {
  run(out, in, 1);
}

SpinorField<double> WilsonEvenOddOperator::prepare_source(const SpinorField<double>& b) const {
  SpinorField<double> b_odd = b.parity_part(1);
  site_inverse(b_odd, b_odd, 0);                                      // A^{-1} b_o
  SpinorField<double> b_even = b.parity_part(0);
  SpinorField<double> out(U_.geometry(), U_.location(), Subset::Even);
  hop(out, b_odd, &b_even, params_.kappa, 0.0, 0);                    // b_e + kappa H_eo A^{-1} b_o
  return out;
}

SpinorField<double> WilsonEvenOddOperator::reconstruct(const SpinorField<double>& x_even,
                                                       const SpinorField<double>& b) const {
  const SpinorField<double> b_odd = b.parity_part(1);
  SpinorField<double> x_odd(U_.geometry(), U_.location(), Subset::Odd);
  hop(x_odd, x_even, &b_odd, params_.kappa, 0.0, 0);                  // b_o + kappa H_oe x_e
  site_inverse(x_odd, x_odd, 0);
  SpinorField<double> x(U_.geometry(), U_.location(), Subset::Full);
  x.set_parity_part(0, x_even);
  x.set_parity_part(1, x_odd);
  return x;
}

}  // namespace lqcd
