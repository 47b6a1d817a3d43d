#include "dirac/clover_operator.hpp"

#include "core/dispatch.hpp"
#include "fields/spinor_blas.hpp"

namespace lqcd {

WilsonCloverOperator::WilsonCloverOperator(const GaugeField<double>& U, const WilsonParams& params, double csw)
    : U_(U), params_(params), clover_(U, params.kappa, csw, params.mu) {}

void WilsonCloverOperator::hop(SpinorField<double>& out, const SpinorField<double>& in, const SpinorField<double>* x,
                               double alpha, bool dagger) const {
  const Location loc = U_.location();
  if (in.location() != loc || out.location() != loc || (x && x->location() != loc))
    fail("internal: WilsonCloverOperator: fields and links on different devices");
  if (!(in.geometry() == geometry()) || !(out.geometry() == geometry()) || (x && !(x->geometry() == geometry())))
    fail("internal: WilsonCloverOperator: fields of another lattice");
  if (out.subset() == Subset::Full) {
    if (in.subset() != Subset::Full || (x && x->subset() != Subset::Full))
      fail("internal: WilsonCloverOperator: a full-lattice output needs full-lattice inputs");
  } else {
    const Subset other = out.subset() == Subset::Even ? Subset::Odd : Subset::Even;
    if (in.subset() != other && in.subset() != Subset::Full)
      fail("internal: WilsonCloverOperator: the hopping input must hold the other parity");
    if (x && x->subset() != out.subset() && x->subset() != Subset::Full)
      fail("internal: WilsonCloverOperator: the site-term input must hold the output's parity");
  }
  if (&in == &out) fail("internal: WilsonCloverOperator: the hopping term cannot act in place");
  // Only U, in, out, boundary, alpha and dagger of the hopping kernel are used (its own site term
  // is replaced by the clover term).
  const WilsonHoppingKernel hopping{.U = U_.view(),
                                    .in = in.view(),
                                    .out = out.view(),
                                    .x = out.view(),
                                    .boundary = params_.boundary,
                                    .alpha = alpha,
                                    .c0 = 0.0,
                                    .c5 = 0.0,
                                    .has_x = 0,
                                    .dagger = dagger ? 1 : 0};
  const WilsonCloverKernel kernel{hopping, clover_.view(), x ? x->view() : out.view(), x ? 1 : 0};
  for_each(loc, out.sites(), kernel);
}

void WilsonCloverOperator::apply(SpinorField<double>& out, const SpinorField<double>& in) const {
  if (in.subset() != Subset::Full || out.subset() != Subset::Full)
    fail("internal: WilsonCloverOperator acts on full-lattice fields");
  hop(out, in, &in, -params_.kappa, false);
}

void WilsonCloverOperator::apply_dagger(SpinorField<double>& out, const SpinorField<double>& in) const {
  if (in.subset() != Subset::Full || out.subset() != Subset::Full)
    fail("internal: WilsonCloverOperator acts on full-lattice fields");
  hop(out, in, &in, -params_.kappa, true);
}

void WilsonCloverOperator::apply_mass_form(SpinorField<double>& out, const SpinorField<double>& in) const {
  apply(out, in);
  scale(Complex<double>(1.0 / (2.0 * params_.kappa)), out);
}

void WilsonCloverOperator::apply_clover(SpinorField<double>& out, const SpinorField<double>& in, bool dagger) const {
  clover_.apply(out, in, dagger);
}

void WilsonCloverOperator::apply_clover_inverse(SpinorField<double>& out, const SpinorField<double>& in,
                                                bool dagger) const {
  clover_.apply_inverse(out, in, dagger);
}

}  // namespace lqcd
