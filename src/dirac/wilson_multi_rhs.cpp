#include "dirac/wilson_multi_rhs.hpp"

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "dirac/wilson_multi_rhs_kernels.hpp"

namespace lqcd {

template <typename Real, int LinkComponents>
void hop_multi_rhs(const GaugeField<Real, LinkComponents>& U, SpinorBlockField<Real>& out,
                   const SpinorBlockField<Real>& in, const std::type_identity_t<SpinorBlockField<Real>>* x,
                   const FermionBoundary& boundary, double alpha, double c0, double c5, int dagger) {
  if (out.geometry().has_halo() || in.geometry().has_halo() || U.geometry().has_halo())
    fail("multi-RHS dslash: not yet on a decomposed lattice");
  if (out.subset() == Subset::Full || in.subset() == Subset::Full || out.subset() == in.subset())
    fail("internal: multi-RHS dslash: out and in must be the two parities");
  if (in.rhs() != out.rhs() || (x && (x->rhs() != out.rhs() || x->subset() != out.subset())))
    fail("internal: multi-RHS dslash: {} right-hand sides in, {} out{}", in.rhs(), out.rhs(),
         x ? " (and the site term's must match out's)" : "");
  if (in.location() != out.location() || U.location() != out.location() || (x && x->location() != out.location()))
    fail("internal: multi-RHS dslash: fields in different memories");
  const WilsonHoppingKernelMultiRHS<Real, LinkComponents> k{
      U.view(), in.view(), out.view(), x ? x->view() : in.view(), boundary, alpha, c0, c5, x ? 1 : 0, dagger};
  for_each(out.location(), out.sites() * out.rhs(), k);
}

#define LQCD_INSTANTIATE_HOP_MULTI_RHS(Real, LC)                                                       \
  template void hop_multi_rhs<Real, LC>(const GaugeField<Real, LC>&, SpinorBlockField<Real>&,          \
                                        const SpinorBlockField<Real>&,                                 \
                                        const std::type_identity_t<SpinorBlockField<Real>>*,           \
                                        const FermionBoundary&, double, double, double, int);
LQCD_INSTANTIATE_HOP_MULTI_RHS(double, 6)
LQCD_INSTANTIATE_HOP_MULTI_RHS(float, 6)
LQCD_INSTANTIATE_HOP_MULTI_RHS(Half, 6)
LQCD_INSTANTIATE_HOP_MULTI_RHS(float, 9)

}  // namespace lqcd
