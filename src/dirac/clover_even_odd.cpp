#include "dirac/clover_even_odd.hpp"

#include <utility>

#include "core/error.hpp"
#include "fields/spinor_blas.hpp"

namespace lqcd {

namespace {

template <typename Real>
std::shared_ptr<WilsonCloverOperator<Real>> checked(std::shared_ptr<WilsonCloverOperator<Real>> M) {
  if (!M) fail("internal: WilsonCloverEvenOddOperator needs a Wilson-clover operator");
  return M;
}

}  // namespace

template <typename Real>
WilsonCloverEvenOddOperator<Real>::WilsonCloverEvenOddOperator(const GaugeField<double>& U, const WilsonParams& params,
                                                               double csw)
  requires std::is_same_v<Real, double>
    : WilsonCloverEvenOddOperator(std::make_shared<WilsonCloverOperator<Real>>(U, params, csw)) {}

template <typename Real>
WilsonCloverEvenOddOperator<Real>::WilsonCloverEvenOddOperator(std::shared_ptr<WilsonCloverOperator<Real>> M)
    : M_(checked(std::move(M))), tmp_odd_(M_->geometry(), M_->location(), Subset::Odd) {}

template <typename Real>
void WilsonCloverEvenOddOperator<Real>::run(SpinorField<Real>& out, const SpinorField<Real>& in, bool dagger) const {
  if (in.subset() != Subset::Even || out.subset() != Subset::Even)
    fail("internal: WilsonCloverEvenOddOperator acts on even-site fields");
  const double k = M_->params().kappa;
  // With dagger, hop and the clover term use H^dag and A^dag: (H_eo)^dag = (H^dag)_oe and
  // (H_oe)^dag = (H^dag)_eo, so the same three steps give M_hat^dag.
  M_->hop(tmp_odd_, in, nullptr, 1.0, dagger);          // H_oe in
  M_->apply_clover_inverse(tmp_odd_, tmp_odd_, dagger);  // A_oo^{-1} H_oe in (site-local: in place)
  M_->hop(out, tmp_odd_, &in, -k * k, dagger);           // A_ee in - kappa^2 H_eo A_oo^{-1} H_oe in
}

template <typename Real>
void WilsonCloverEvenOddOperator<Real>::apply(SpinorField<Real>& out, const SpinorField<Real>& in) const {
  run(out, in, false);
}

template <typename Real>
void WilsonCloverEvenOddOperator<Real>::apply_dagger(SpinorField<Real>& out, const SpinorField<Real>& in) const {
  run(out, in, true);
}

template <typename Real>
SpinorField<Real> WilsonCloverEvenOddOperator<Real>::prepare_source(const SpinorField<Real>& b) const {
  if (b.subset() != Subset::Full) fail("internal: WilsonCloverEvenOddOperator: the source must be a full-lattice field");
  SpinorField<Real> b_odd = b.parity_part(1);
  M_->apply_clover_inverse(b_odd, b_odd);                   // A_oo^{-1} b_o
  SpinorField<Real> out(geometry(), location(), Subset::Even);
  M_->hop(out, b_odd, nullptr, M_->params().kappa);         // kappa H_eo A_oo^{-1} b_o
  axpy(Complex<double>(1.0), b.parity_part(0), out);        // + b_e
  return out;
}

template <typename Real>
SpinorField<Real> WilsonCloverEvenOddOperator<Real>::reconstruct(const SpinorField<Real>& x_even,
                                                             const SpinorField<Real>& b) const {
  if (x_even.subset() != Subset::Even || b.subset() != Subset::Full)
    fail("internal: WilsonCloverEvenOddOperator: reconstruct needs an even-site solution and a full source");
  SpinorField<Real> x_odd(geometry(), location(), Subset::Odd);
  M_->hop(x_odd, x_even, nullptr, M_->params().kappa);      // kappa H_oe x_e
  axpy(Complex<double>(1.0), b.parity_part(1), x_odd);      // + b_o
  M_->apply_clover_inverse(x_odd, x_odd);                   // A_oo^{-1} (.)
  SpinorField<Real> x(geometry(), location(), Subset::Full);
  x.set_parity_part(0, x_even);
  x.set_parity_part(1, x_odd);
  return x;
}

template class WilsonCloverEvenOddOperator<double>;
template class WilsonCloverEvenOddOperator<float>;

}  // namespace lqcd
