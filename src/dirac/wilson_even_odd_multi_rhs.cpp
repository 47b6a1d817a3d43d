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
  if (!(params.kappa > 0)) fail("kappa: must be positive (got {})", params.kappa);
}

template <typename Real, int LC>
void WilsonEvenOddMultiRHS<Real, LC>::odd_part(const SpinorBlockField<Real>& in, int dagger) const {
  if (in.subset() != Subset::Even) fail("internal: WilsonEvenOddMultiRHS acts on even-site blocks");
  hop_multi_rhs(U_, tmp_odd_, in, nullptr, params_.boundary, 1.0, 1.0, 0.0, dagger);  // H_oe in
  if (params_.mu != 0) {                                                                // A^{-1} H_oe in
    const double b = c5(), n = 1.0 / (1.0 + b * b);
    const SpinorView<Real> t = tmp_odd_.view().flat;
    for_each(location(), tmp_odd_.sites() * tmp_odd_.rhs(), TwistedSiteKernel<Real>{t, t, n, -b * n, dagger});
  }
}

template <typename Real, int LC>
void WilsonEvenOddMultiRHS<Real, LC>::run(SpinorBlockField<Real>& out, const SpinorBlockField<Real>& in,
                                          int dagger) const {
  odd_part(in, dagger);
  hop_multi_rhs(U_, out, tmp_odd_, &in, params_.boundary, alpha(), 1.0, c5(), dagger);  // A in - kappa^2 H_eo ...
}

template <typename Real, int LC>
std::vector<double> WilsonEvenOddMultiRHS<Real, LC>::apply_norm2(SpinorBlockField<Real>& out,
                                                                 const SpinorBlockField<Real>& in) const {
  odd_part(in, 0);
  return hop_multi_rhs_norm2(U_, out, tmp_odd_, &in, params_.boundary, alpha(), 1.0, c5(), 0);
}

template <typename Real, int LC>
std::vector<double> WilsonEvenOddMultiRHS<Real, LC>::apply_dagger_axpy_norm2(std::span<const double> a,
                                                                             const SpinorBlockField<Real>& in,
                                                                             SpinorBlockField<Real>& y) const {
  if (&y == &in) fail("internal: WilsonEvenOddMultiRHS::apply_dagger_axpy_norm2: y must not be in");
  odd_part(in, 1);
  // y_j + a_j (A^dag in_j - kappa^2 H^dag tmp_odd_j): the hopping kernel's site term is scaled by a_j too.
  return hop_multi_rhs_norm2(U_, y, tmp_odd_, &in, params_.boundary, alpha(), 1.0, c5(), 1, a);
}

template <typename Real, int LC>
void WilsonEvenOddMultiRHS<Real, LC>::apply_norm2_into(SpinorBlockField<Real>& out, const SpinorBlockField<Real>& in,
                                                       double* sums) const {
  odd_part(in, 0);
  hop_multi_rhs_norm2_into(U_, out, tmp_odd_, &in, params_.boundary, alpha(), 1.0, c5(), 0, nullptr, sums);
}

template <typename Real, int LC>
void WilsonEvenOddMultiRHS<Real, LC>::apply_dagger_axpy_norm2_into(const double* a, const SpinorBlockField<Real>& in,
                                                                   SpinorBlockField<Real>& y, double* sums) const {
  if (&y == &in) fail("internal: WilsonEvenOddMultiRHS::apply_dagger_axpy_norm2_into: y must not be in");
  if (!a) fail("internal: WilsonEvenOddMultiRHS::apply_dagger_axpy_norm2_into: no coefficients");
  odd_part(in, 1);
  hop_multi_rhs_norm2_into(U_, y, tmp_odd_, &in, params_.boundary, alpha(), 1.0, c5(), 1, a, sums);
}

template class WilsonEvenOddMultiRHS<double, 6>;
template class WilsonEvenOddMultiRHS<float, 6>;
template class WilsonEvenOddMultiRHS<Half, 6>;
template class WilsonEvenOddMultiRHS<double, 9>;  // the propagators' block solves (dirac_operator_factory.cpp)

}  // namespace lqcd
