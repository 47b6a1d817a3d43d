#include "dirac/wilson_multi_rhs.hpp"

#include "comm/communicator.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "dirac/visiting_order.hpp"
#include "dirac/wilson_multi_rhs_kernels.hpp"

namespace lqcd {

namespace {

// The t-tile of the sites' visiting order (dirac/visiting_order.hpp). The input block is what L2 must
// keep: in storage order a site's spinors are read again by its t-neighbours a time slice later and
// earlier, so two slices of the block count against L2, and a tile's planes hold the block's sites.
template <typename Real>
int block_t_tile(const SpinorBlockField<Real>& in) {
  const std::int64_t site = spinor_site_bytes<Real>() * in.rhs();
  return t_tile(in.geometry(), "LQCD_MULTI_RHS_T_TILE", 2 * site, site);
}

template <typename Real, int LinkComponents>
WilsonHoppingKernelMultiRHS<Real, LinkComponents> checked_kernel(const GaugeField<Real, LinkComponents>& U,
                                                                 SpinorBlockField<Real>& out,
                                                                 const SpinorBlockField<Real>& in,
                                                                 const SpinorBlockField<Real>* x,
                                                                 const FermionBoundary& boundary, double alpha,
                                                                 double c0, double c5, int dagger) {
  if (out.geometry().has_halo() || in.geometry().has_halo() || U.geometry().has_halo())
    fail("multi-RHS dslash: not yet on a decomposed lattice");
  if (out.subset() == Subset::Full || in.subset() == Subset::Full || out.subset() == in.subset())
    fail("internal: multi-RHS dslash: out and in must be the two parities");
  if (in.rhs() != out.rhs() || (x && (x->rhs() != out.rhs() || x->subset() != out.subset())))
    fail("internal: multi-RHS dslash: {} right-hand sides in, {} out{}", in.rhs(), out.rhs(),
         x ? " (and the site term's must match out's)" : "");
  if (out.sites() * out.rhs() >= (std::int64_t(1) << 32))
    fail("multi-RHS dslash: {} sites x {} right-hand sides: fewer than 2^32 per process are supported", out.sites(), out.rhs());
  if (in.location() != out.location() || U.location() != out.location() || (x && x->location() != out.location()))
    fail("internal: multi-RHS dslash: fields in different memories");
  return {U.view(), in.view(), out.view(), x ? x->view() : in.view(), boundary, alpha, c0, c5, x ? 1 : 0, dagger,
          block_t_tile(in)};
}

// The fused kernel for hop_multi_rhs_norm2(_into): `accumulate` with the coefficients in a.
template <typename Real, int LinkComponents>
WilsonHoppingNormKernelMultiRHS<Real, LinkComponents> checked_norm_kernel(
    const GaugeField<Real, LinkComponents>& U, SpinorBlockField<Real>& out, const SpinorBlockField<Real>& in,
    const SpinorBlockField<Real>* x, const FermionBoundary& boundary, double alpha, double c0, double c5, int dagger,
    const RhsCoefficients<compute_t<Real>>& a, bool accumulate) {
  const int n = out.rhs();
  if (n > kMaxBlockRhs) fail("{} right-hand sides in a block: at most {} are supported", n, kMaxBlockRhs);
  if (accumulate && x == &out) fail("internal: multi-RHS dslash: the accumulated block cannot be the site term's");
  return {checked_kernel(U, out, in, x, boundary, alpha, c0, c5, dagger), a, accumulate ? 1 : 0};
}

}  // namespace

template <typename Real, int LinkComponents>
void hop_multi_rhs(const GaugeField<Real, LinkComponents>& U, SpinorBlockField<Real>& out,
                   const SpinorBlockField<Real>& in, const std::type_identity_t<SpinorBlockField<Real>>* x,
                   const FermionBoundary& boundary, double alpha, double c0, double c5, int dagger) {
  for_each(out.location(), out.sites() * out.rhs(), checked_kernel(U, out, in, x, boundary, alpha, c0, c5, dagger));
}

template <typename Real, int LinkComponents>
std::vector<double> hop_multi_rhs_norm2(const GaugeField<Real, LinkComponents>& U, SpinorBlockField<Real>& out,
                                        const SpinorBlockField<Real>& in,
                                        const std::type_identity_t<SpinorBlockField<Real>>* x,
                                        const FermionBoundary& boundary, double alpha, double c0, double c5,
                                        int dagger, std::span<const double> a) {
  const int n = out.rhs();
  if (!a.empty() && std::int64_t(a.size()) != n) fail("internal: {} coefficients for {} right-hand sides", a.size(), n);
  const auto k = checked_norm_kernel(U, out, in, x, boundary, alpha, c0, c5, dagger,
                                     RhsCoefficients<compute_t<Real>>::values(a), !a.empty());
  std::vector<double> sums = reduce_each(out.location(), out.sites() * n, n, k);
  comm::sum(out.geometry().grid, sums);
  return sums;
}

template <typename Real, int LinkComponents>
void hop_multi_rhs_norm2_into(const GaugeField<Real, LinkComponents>& U, SpinorBlockField<Real>& out,
                              const SpinorBlockField<Real>& in,
                              const std::type_identity_t<SpinorBlockField<Real>>* x, const FermionBoundary& boundary,
                              double alpha, double c0, double c5, int dagger, const double* a, double* sums) {
  const auto k = checked_norm_kernel(U, out, in, x, boundary, alpha, c0, c5, dagger,
                                     RhsCoefficients<compute_t<Real>>::read_at(a), a != nullptr);
  reduce_each_into(out.location(), out.sites() * out.rhs(), out.rhs(), k, sums);
  sum_over_processes(out.geometry(), out.location(), sums, out.rhs());
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
LQCD_INSTANTIATE_HOP_MULTI_RHS(double, 9)

#define LQCD_INSTANTIATE_HOP_MULTI_RHS_NORM2(Real, LC)                                                    \
  template std::vector<double> hop_multi_rhs_norm2<Real, LC>(                                            \
      const GaugeField<Real, LC>&, SpinorBlockField<Real>&, const SpinorBlockField<Real>&,               \
      const std::type_identity_t<SpinorBlockField<Real>>*, const FermionBoundary&, double, double, double, \
      int, std::span<const double>);                                                                     \
  template void hop_multi_rhs_norm2_into<Real, LC>(                                                      \
      const GaugeField<Real, LC>&, SpinorBlockField<Real>&, const SpinorBlockField<Real>&,               \
      const std::type_identity_t<SpinorBlockField<Real>>*, const FermionBoundary&, double, double, double, \
      int, const double*, double*);
LQCD_INSTANTIATE_HOP_MULTI_RHS_NORM2(double, 6)
LQCD_INSTANTIATE_HOP_MULTI_RHS_NORM2(float, 6)
LQCD_INSTANTIATE_HOP_MULTI_RHS_NORM2(Half, 6)
LQCD_INSTANTIATE_HOP_MULTI_RHS_NORM2(double, 9)

}  // namespace lqcd
