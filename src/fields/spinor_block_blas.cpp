#include "fields/spinor_block_blas.hpp"

#include <type_traits>

#include "comm/communicator.hpp"
#include "comm/device_messages.hpp"
#include "core/dispatch.hpp"
#include "fields/precision_kernels.hpp"
#include "fields/spinor_blas_kernels.hpp"
#include "fields/spinor_block_blas_kernels.hpp"

namespace lqcd {

namespace {

template <typename A, typename B>
void check_same_shape(const SpinorBlockField<A>& x, const SpinorBlockField<B>& y) {
  if (x.subset() != y.subset() || x.location() != y.location() || x.rhs() != y.rhs() ||
      !(x.geometry() == y.geometry()))
    fail("internal: spinor blocks of different shape, size or location in a vector operation");
  if (x.subset() == Subset::Full) fail("internal: block vector operations act on one parity (Even or Odd blocks)");
  if (x.rhs() > kMaxBlockRhs) fail("{} right-hand sides in a block: at most {} are supported", x.rhs(), kMaxBlockRhs);
}

template <typename Real>
RhsCoefficients<compute_t<Real>> coefficients(std::span<const double> a, int n) {
  if (std::int64_t(a.size()) != n) fail("internal: {} coefficients for {} right-hand sides", a.size(), n);
  return RhsCoefficients<compute_t<Real>>::values(a);
}
// Coefficients read where a resident solver keeps them.
template <typename Real>
RhsCoefficients<compute_t<Real>> coefficients_at(const double* a) {
  if (!a) fail("internal: no coefficients for a block operation");
  return RhsCoefficients<compute_t<Real>>::read_at(a);
}

// Elements of a block's flat view: sites x right-hand sides.
template <typename Real>
std::int64_t elements(const SpinorBlockField<Real>& x) {
  return x.sites() * x.rhs();
}

std::vector<double> summed(const Geometry& g, std::vector<double> v) {
  comm::sum(g.grid, v);
  return v;
}

}  // namespace

template <typename Real>
void set_zero(SpinorBlockField<Real>& x) {
  check_same_shape(x, x);
  for_each(x.location(), elements(x), ZeroKernel<Real>{x.view().flat});
}

template <typename Real>
std::vector<double> norm2_each(const SpinorBlockField<Real>& x) {
  check_same_shape(x, x);
  return summed(x.geometry(), reduce_each(x.location(), elements(x), x.rhs(), BlockNorm2Kernel<Real>{x.view().flat}));
}

template <typename Real>
void axpy_each(std::span<const double> a, const SpinorBlockField<Real>& x, SpinorBlockField<Real>& y) {
  check_same_shape(x, y);
  for_each(y.location(), elements(y),
           BlockAxpyKernel<Real>{coefficients<Real>(a, y.rhs()), x.view().flat, y.view().flat, y.rhs()});
}

template <typename Real>
void subtract_from(const SpinorBlockField<Real>& x, SpinorBlockField<Real>& y) {
  check_same_shape(x, y);
  for_each(y.location(), elements(y), XpayKernel<Real>{Complex<compute_t<Real>>(-1), x.view().flat, y.view().flat});
}

template <typename Real>
std::vector<double> axpy_norm2_each(std::span<const double> a, const SpinorBlockField<Real>& x,
                                    SpinorBlockField<Real>& y) {
  check_same_shape(x, y);
  const BlockAxpyNorm2Kernel<Real> k{
      BlockAxpyKernel<Real>{coefficients<Real>(a, y.rhs()), x.view().flat, y.view().flat, y.rhs()}};
  return summed(y.geometry(), reduce_each(y.location(), elements(y), y.rhs(), k));
}

template <typename Real>
void axpy_xpay_each(std::span<const double> a, SpinorBlockField<Real>& p, SpinorBlockField<Real>& x,
                    const SpinorBlockField<Real>& z, std::span<const double> b) {
  check_same_shape(p, x);
  check_same_shape(p, z);
  const int n = p.rhs();
  for_each(p.location(), elements(p),
           BlockAxpyXpayKernel<Real>{coefficients<Real>(a, n), coefficients<Real>(b, n), p.view().flat,
                                     x.view().flat, z.view().flat, n});
}

void sum_over_processes(const Geometry& geom, Location loc, double* sums, int n) {
  if (geom.processes() == 1) return;
  if (loc == Location::Device) comm::sum_on_device(sums, n, nullptr);
  else comm::sum(geom.grid, std::span<double>(sums, std::size_t(n)));
}

template <typename Real>
void norm2_each_into(const SpinorBlockField<Real>& x, double* sums) {
  check_same_shape(x, x);
  reduce_each_into(x.location(), elements(x), x.rhs(), BlockNorm2Kernel<Real>{x.view().flat}, sums);
  sum_over_processes(x.geometry(), x.location(), sums, x.rhs());
}

template <typename Real>
void axpy_norm2_each_into(const double* a, const SpinorBlockField<Real>& x, SpinorBlockField<Real>& y, double* sums) {
  check_same_shape(x, y);
  const BlockAxpyNorm2Kernel<Real> k{BlockAxpyKernel<Real>{coefficients_at<Real>(a), x.view().flat, y.view().flat, y.rhs()}};
  reduce_each_into(y.location(), elements(y), y.rhs(), k, sums);
  sum_over_processes(y.geometry(), y.location(), sums, y.rhs());
}

template <typename Real>
void axpy_xpay_each(const double* a, SpinorBlockField<Real>& p, SpinorBlockField<Real>& x,
                    const SpinorBlockField<Real>& z, const double* b) {
  check_same_shape(p, x);
  check_same_shape(p, z);
  for_each(p.location(), elements(p),
           BlockAxpyXpayKernel<Real>{coefficients_at<Real>(a), coefficients_at<Real>(b), p.view().flat,
                                     x.view().flat, z.view().flat, p.rhs()});
}

template <typename To, typename From>
void convert_precision(SpinorBlockField<To>& out, const SpinorBlockField<From>& in) {
  check_same_shape(out, in);
  if constexpr (std::is_same_v<To, From>) {
    out.copy_from(in);
  } else if constexpr (is_fixed_point_v<To> || is_fixed_point_v<From>) {
    for_each(in.location(), elements(in), ConvertSpinorKernel<To, From>{out.view().flat, in.view().flat});
  } else {
    const SpinorView<To> o = out.view().flat;
    const SpinorView<From> i = in.view().flat;
    const std::int64_t p = in.subset() == Subset::Odd ? 1 : 0;
    for_each(in.location(), 12 * elements(in),
             ConvertComponentsKernel<To, From>{o.block(int(p)), o.stride, i.block(int(p)), i.stride, elements(in),
                                               stored_in_pairs_v<To, 12>, stored_in_pairs_v<From, 12>});
  }
}

#define LQCD_INSTANTIATE_SPINOR_BLOCK_BLAS(Real)                                                                   \
  template void set_zero<Real>(SpinorBlockField<Real>&);                                                          \
  template std::vector<double> norm2_each<Real>(const SpinorBlockField<Real>&);                                   \
  template void axpy_each<Real>(std::span<const double>, const SpinorBlockField<Real>&, SpinorBlockField<Real>&); \
  template void subtract_from<Real>(const SpinorBlockField<Real>&, SpinorBlockField<Real>&);                      \
  template std::vector<double> axpy_norm2_each<Real>(std::span<const double>, const SpinorBlockField<Real>&,      \
                                                     SpinorBlockField<Real>&);                                    \
  template void axpy_xpay_each<Real>(std::span<const double>, SpinorBlockField<Real>&, SpinorBlockField<Real>&,   \
                                     const SpinorBlockField<Real>&, std::span<const double>);                \
  template void norm2_each_into<Real>(const SpinorBlockField<Real>&, double*);                                    \
  template void axpy_norm2_each_into<Real>(const double*, const SpinorBlockField<Real>&, SpinorBlockField<Real>&,  \
                                           double*);                                                              \
  template void axpy_xpay_each<Real>(const double*, SpinorBlockField<Real>&, SpinorBlockField<Real>&,             \
                                     const SpinorBlockField<Real>&, const double*);
LQCD_INSTANTIATE_SPINOR_BLOCK_BLAS(double)
LQCD_INSTANTIATE_SPINOR_BLOCK_BLAS(float)
LQCD_INSTANTIATE_SPINOR_BLOCK_BLAS(Half)
#undef LQCD_INSTANTIATE_SPINOR_BLOCK_BLAS

template void convert_precision<float, double>(SpinorBlockField<float>&, const SpinorBlockField<double>&);
template void convert_precision<double, float>(SpinorBlockField<double>&, const SpinorBlockField<float>&);
template void convert_precision<Half, double>(SpinorBlockField<Half>&, const SpinorBlockField<double>&);
template void convert_precision<double, Half>(SpinorBlockField<double>&, const SpinorBlockField<Half>&);

}  // namespace lqcd
