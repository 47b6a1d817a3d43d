#include "dirac/compressed_clover_even_odd.hpp"

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "dirac/face_exchange.hpp"
#include "dirac/visiting_order.hpp"
#include "fields/spinor_blas.hpp"

namespace lqcd {

template <typename Real, int LC>
CompressedCloverEvenOddOperator<Real, LC>::CompressedCloverEvenOddOperator(const WilsonCloverEvenOddOperator<double>& M)
    : links_(convert_links<Real, LC>(M.full_operator().links())),
      clover_(M.clover()),
      params_(M.params()),
      tmp_odd_(M.geometry(), M.location(), Subset::Odd),
      // The clover blocks add 2 x 288 bytes per site to the hopping term's traffic.
      t_tile_(hopping_t_tile(M.geometry(), hopping_traffic_bytes<Real, LC>() + 2 * 288)) {}

template <typename Real, int LC>
void CompressedCloverEvenOddOperator<Real, LC>::hop(SpinorField<Real>& out, const SpinorField<Real>& in,
                                                    const SpinorField<Real>* x, double alpha, bool then_inverse,
                                                    int dagger) const {
  // Fused only where no face hops follow the kernel (they would land outside A^{-1}).
  const bool fuse = then_inverse && !out.geometry().has_halo();
  const auto hopping = bare_hopping_kernel(links_.view(), in, out, params_.boundary, alpha, dagger, t_tile_);
  const WilsonCloverKernel<Real, LC> kernel{hopping, clover_.view(), x ? x->view() : out.view(), x ? 1 : 0,
                                            fuse ? 1 : 0};
  run_hopping_term(kernel, hopping.U, in, out, params_.boundary, alpha, dagger);
  if (then_inverse && !fuse)
    for_each(location(), out.sites(), CloverSiteKernel<Real>{clover_.view(), out.view(), out.view(), 1, dagger});
}

template <typename Real, int LC>
void CompressedCloverEvenOddOperator<Real, LC>::run(SpinorField<Real>& out, const SpinorField<Real>& in,
                                                    int dagger) const {
  if (in.subset() != Subset::Even || out.subset() != Subset::Even)
    fail("internal: CompressedCloverEvenOddOperator acts on even-site fields");
  const double k = params_.kappa;
  hop(tmp_odd_, in, nullptr, 1.0, true, dagger);    // A_oo^{-1} H_oe in
  hop(out, tmp_odd_, &in, -k * k, false, dagger);   // A_ee in - kappa^2 H_eo A_oo^{-1} H_oe in
}

template <typename Real, int LC>
void CompressedCloverEvenOddOperator<Real, LC>::apply(SpinorField<Real>& out, const SpinorField<Real>& in) const {
  run(out, in, 0);
}

template <typename Real, int LC>
void CompressedCloverEvenOddOperator<Real, LC>::apply_dagger(SpinorField<Real>& out,
                                                             const SpinorField<Real>& in) const {
  run(out, in, 1);
}

template <typename Real, int LC>
SpinorField<Real> CompressedCloverEvenOddOperator<Real, LC>::prepare_source(const SpinorField<Real>& b) const {
  if (b.subset() != Subset::Full)
    fail("internal: CompressedCloverEvenOddOperator: the source must be a full-lattice field");
  SpinorField<Real> b_odd = b.parity_part(1);
  for_each(location(), b_odd.sites(), CloverSiteKernel<Real>{clover_.view(), b_odd.view(), b_odd.view(), 1, 0});
  const SpinorField<Real> b_even = b.parity_part(0);
  SpinorField<Real> out(geometry(), location(), Subset::Even);
  hop(out, b_odd, nullptr, params_.kappa, false, 0);  // kappa H_eo A_oo^{-1} b_o
  axpy(Complex<double>(1.0), b_even, out);            // + b_e
  return out;
}

template <typename Real, int LC>
SpinorField<Real> CompressedCloverEvenOddOperator<Real, LC>::reconstruct(const SpinorField<Real>& x_even,
                                                                         const SpinorField<Real>& b) const {
  if (x_even.subset() != Subset::Even || b.subset() != Subset::Full)
    fail("internal: CompressedCloverEvenOddOperator: reconstruct needs an even-site solution and a full source");
  SpinorField<Real> x_odd(geometry(), location(), Subset::Odd);
  hop(x_odd, x_even, nullptr, params_.kappa, false, 0);  // kappa H_oe x_e
  axpy(Complex<double>(1.0), b.parity_part(1), x_odd);   // + b_o
  for_each(location(), x_odd.sites(), CloverSiteKernel<Real>{clover_.view(), x_odd.view(), x_odd.view(), 1, 0});
  SpinorField<Real> x(geometry(), location(), Subset::Full);
  x.set_parity_part(0, x_even);
  x.set_parity_part(1, x_odd);
  return x;
}

template class CompressedCloverEvenOddOperator<float, 6>;
template class CompressedCloverEvenOddOperator<float, 9>;
template class CompressedCloverEvenOddOperator<Half, 6>;

}  // namespace lqcd
