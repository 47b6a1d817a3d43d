#include "dirac/clover_operator.hpp"

#include "core/dispatch.hpp"
#include "dirac/face_exchange.hpp"
#include "core/error.hpp"
#include "fields/spinor_blas.hpp"

namespace lqcd {

template <typename Real>
WilsonCloverOperator<Real>::WilsonCloverOperator(const GaugeField<double>& U, const WilsonParams& params, double csw,
                                                 bool trace_kept, const GaugeField<double>* hop_links,
                                                 const QuarkTimeBoundary& boundary)
  requires std::is_same_v<Real, double>
    : U_(hop_links ? *hop_links : U), params_(params), clover_(U, params.kappa, csw, params.mu, trace_kept, boundary) {
  if (!(U_.geometry() == U.geometry()) || U_.location() != U.location())
    fail("internal: WilsonCloverOperator: hopping links of another lattice or device");
}

template <typename Real>
WilsonCloverOperator<Real>::WilsonCloverOperator(const GaugeField<float>& U_single,
                                                 const WilsonCloverOperator<double>& M)
  requires std::is_same_v<Real, float>
    : U_(U_single), params_(M.params()), clover_(M.clover()) {
  if (!(U_single.geometry() == M.geometry()) || U_single.location() != M.location())
    fail("internal: single-precision WilsonCloverOperator: links of another lattice or device");
}

template <typename Real>
void WilsonCloverOperator<Real>::hop(SpinorField<Real>& out, const SpinorField<Real>& in, const SpinorField<Real>* x,
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
  const auto hopping = bare_hopping_kernel(U_.view(), in, out, params_.boundary, alpha, dagger ? 1 : 0);
  const WilsonCloverKernel<Real> kernel{hopping, clover_.view(), x ? x->view() : out.view(), x ? 1 : 0};
  run_hopping_term(kernel, hopping.U, in, out, params_.boundary, alpha, hopping.dagger);
}

template <typename Real>
void WilsonCloverOperator<Real>::apply(SpinorField<Real>& out, const SpinorField<Real>& in) const {
  if (in.subset() != Subset::Full || out.subset() != Subset::Full)
    fail("internal: WilsonCloverOperator acts on full-lattice fields");
  hop(out, in, &in, -params_.kappa, false);
}

template <typename Real>
void WilsonCloverOperator<Real>::apply_dagger(SpinorField<Real>& out, const SpinorField<Real>& in) const {
  if (in.subset() != Subset::Full || out.subset() != Subset::Full)
    fail("internal: WilsonCloverOperator acts on full-lattice fields");
  hop(out, in, &in, -params_.kappa, true);
}

template <typename Real>
void WilsonCloverOperator<Real>::apply_mass_form(SpinorField<Real>& out, const SpinorField<Real>& in) const {
  apply(out, in);
  scale(Complex<double>(1.0 / (2.0 * params_.kappa)), out);
}

template <typename Real>
void WilsonCloverOperator<Real>::apply_clover(SpinorField<Real>& out, const SpinorField<Real>& in, bool dagger) const {
  clover_.apply(out, in, dagger);
}

template <typename Real>
void WilsonCloverOperator<Real>::apply_clover_inverse(SpinorField<Real>& out, const SpinorField<Real>& in,
                                                bool dagger) const {
  clover_.apply_inverse(out, in, dagger);
}

template class WilsonCloverOperator<double>;
template class WilsonCloverOperator<float>;

}  // namespace lqcd
