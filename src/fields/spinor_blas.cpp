#include "fields/spinor_blas.hpp"

#include <algorithm>
#include <type_traits>

#include "comm/communicator.hpp"
#include "core/dispatch.hpp"
#include "fields/precision_kernels.hpp"
#include "fields/spinor_blas_kernels.hpp"

namespace lqcd {

namespace {
template <typename A, typename B>
void check_same_shape(const SpinorField<A>& x, const SpinorField<B>& y) {
  if (x.subset() != y.subset() || x.location() != y.location() || !(x.geometry() == y.geometry()))
    fail("internal: spinor fields of different shape or location in a vector operation");
}
}  // namespace

template <typename Real>
void axpy(Complex<double> a, const SpinorField<Real>& x, SpinorField<Real>& y) {
  check_same_shape(x, y);
  for_each(y.location(), y.sites(), AxpyKernel<Real>{Complex<compute_t<Real>>(a), x.view(), y.view()});
}

template <typename Real>
void xpay(const SpinorField<Real>& x, Complex<double> a, SpinorField<Real>& y) {
  check_same_shape(x, y);
  for_each(y.location(), y.sites(), XpayKernel<Real>{Complex<compute_t<Real>>(a), x.view(), y.view()});
}

template <typename Real>
void scale(Complex<double> a, SpinorField<Real>& x) {
  for_each(x.location(), x.sites(), ScaleKernel<Real>{Complex<compute_t<Real>>(a), x.view()});
}

template <typename Real>
void set_zero(SpinorField<Real>& x) {
  for_each(x.location(), x.sites(), ZeroKernel<Real>{x.view()});
}

template <typename Real>
Complex<double> dot(const SpinorField<Real>& x, const SpinorField<Real>& y) {
  check_same_shape(x, y);
  Sums<2> s = reduce<Sums<2>>(x.location(), x.sites(), DotKernel<Real>{x.view(), y.view()});
  comm::sum(x.geometry().grid, s.v);
  return {s[0], s[1]};
}

template <typename Real>
double norm2(const SpinorField<Real>& x) {
  return comm::sum(x.geometry().grid, reduce<Sums<1>>(x.location(), x.sites(), Norm2Kernel<Real>{x.view()})[0]);
}

template <typename Real>
double axpy_norm2(Complex<double> a, const SpinorField<Real>& x, SpinorField<Real>& y) {
  check_same_shape(x, y);
  const AxpyNorm2Kernel<Real> k{AxpyKernel<Real>{Complex<compute_t<Real>>(a), x.view(), y.view()}};
  return comm::sum(y.geometry().grid, reduce<Sums<1>>(y.location(), y.sites(), k)[0]);
}

template <typename Real>
void axpy_xpay(Complex<double> a, SpinorField<Real>& p, SpinorField<Real>& x, const SpinorField<Real>& z,
               Complex<double> b) {
  check_same_shape(p, x);
  check_same_shape(p, z);
  for_each(p.location(), p.sites(),
           AxpyXpayKernel<Real>{Complex<compute_t<Real>>(a), Complex<compute_t<Real>>(b), p.view(), x.view(), z.view()});
}

template <typename Real>
DotAndNorm2 dot_norm2(const SpinorField<Real>& x, const SpinorField<Real>& y) {
  check_same_shape(x, y);
  Sums<3> s = reduce<Sums<3>>(x.location(), x.sites(), DotNorm2Kernel<Real>{x.view(), y.view()});
  comm::sum(x.geometry().grid, s.v);
  return {{s[0], s[1]}, s[2]};
}

template <typename Real>
Norm2AndDot axpbypz_axpy_norm2_dot(Complex<double> a, const SpinorField<Real>& x, Complex<double> b,
                                   SpinorField<Real>& y, SpinorField<Real>& z, Complex<double> c,
                                   const SpinorField<Real>& w, const SpinorField<Real>& v) {
  for (const SpinorField<Real>* f : {&x, static_cast<const SpinorField<Real>*>(&y), &w, &v}) check_same_shape(*f, z);
  using T = compute_t<Real>;
  const AxpbypzAxpyNorm2DotKernel<Real> k{
      AxpbypzKernel<Real>{Complex<T>(a), Complex<T>(b), x.view(), y.view(), z.view()},
      AxpyNorm2DotKernel<Real>{AxpyKernel<Real>{Complex<T>(c), w.view(), y.view()}, v.view()}};
  Sums<3> s = reduce<Sums<3>>(z.location(), z.sites(), k);
  comm::sum(z.geometry().grid, s.v);
  return {s[0], {s[1], s[2]}};
}

template <typename Real>
void axpy_then_xpay(Complex<double> a, const SpinorField<Real>& z, SpinorField<Real>& y, const SpinorField<Real>& x,
                    Complex<double> b) {
  check_same_shape(z, y);
  check_same_shape(x, y);
  for_each(y.location(), y.sites(),
           AxpyThenXpayKernel<Real>{Complex<compute_t<Real>>(a), Complex<compute_t<Real>>(b), z.view(), y.view(),
                                    x.view()});
}

template <typename Real>
std::vector<Complex<double>> multi_dot(const std::vector<const SpinorField<Real>*>& x, const SpinorField<Real>& y,
                                       double* y_norm2) {
  const std::size_t n = x.size();
  std::vector<Complex<double>> d(n);
  if (y_norm2) *y_norm2 = 0;
  for (std::size_t j0 = 0; j0 < n || (j0 == 0 && y_norm2); j0 += kSpinorBatch) {
    MultiDotKernel<Real> k{};
    k.y = y.view();
    k.n = int(std::min<std::size_t>(kSpinorBatch, n - j0));
    for (int j = 0; j < k.n; ++j) {
      check_same_shape(*x[j0 + std::size_t(j)], y);
      k.x[j] = x[j0 + std::size_t(j)]->view();
    }
    Sums<2 * kSpinorBatch + 1> s = reduce<Sums<2 * kSpinorBatch + 1>>(y.location(), y.sites(), k);
    comm::sum(y.geometry().grid, s.v);
    for (int j = 0; j < k.n; ++j) d[j0 + std::size_t(j)] = {s[2 * j], s[2 * j + 1]};
    if (j0 == 0 && y_norm2) *y_norm2 = s[2 * kSpinorBatch];
  }
  return d;
}

template <typename Real>
void multi_axpy(const std::vector<Complex<double>>& a, const std::vector<const SpinorField<Real>*>& x,
                SpinorField<Real>& y, double c) {
  if (a.size() != x.size()) fail("internal: multi_axpy with {} coefficients for {} fields", a.size(), x.size());
  for (std::size_t j0 = 0; j0 < x.size() || (j0 == 0 && c != 1.0); j0 += kSpinorBatch) {
    MultiAxpyKernel<Real> k{};
    k.y = y.view();
    k.n = int(std::min<std::size_t>(kSpinorBatch, x.size() - j0));
    if (j0 + kSpinorBatch >= x.size()) k.c = compute_t<Real>(c);  // the last batch scales
    for (int j = 0; j < k.n; ++j) {
      check_same_shape(*x[j0 + std::size_t(j)], y);
      k.a[j] = Complex<compute_t<Real>>(a[j0 + std::size_t(j)]);
      k.x[j] = x[j0 + std::size_t(j)]->view();
    }
    for_each(y.location(), y.sites(), k);
  }
}

template <typename To, typename From>
void convert_precision(SpinorField<To>& out, const SpinorField<From>& in) {
  check_same_shape(out, in);
  if constexpr (std::is_same_v<To, From>) {
    out.copy_from(in);
  } else if constexpr (is_fixed_point_v<To> || is_fixed_point_v<From>) {
    // Site by site (the norm of a half-precision site depends on all its components); half-precision
    // fields have no halo to keep current.
    for_each(in.location(), in.sites(), ConvertSpinorKernel<To, From>{out.view(), in.view()});
  } else {
    const std::int64_t vh = in.geometry().stored_half_volume();  // halo sites too: they stay current
    const std::int64_t components = 12 * (in.subset() == Subset::Full ? 2 : 1);
    for_each(in.location(), components * vh,
             ConvertComponentsKernel<To, From>{out.view().data, out.view().stride, in.view().data, in.view().stride, vh,
                                               stored_in_pairs_v<To, 12>, stored_in_pairs_v<From, 12>});
  }
}

#define LQCD_INSTANTIATE_SPINOR_BLAS(Real)                                                   \
  template void axpy<Real>(Complex<double>, const SpinorField<Real>&, SpinorField<Real>&);  \
  template void xpay<Real>(const SpinorField<Real>&, Complex<double>, SpinorField<Real>&);  \
  template void scale<Real>(Complex<double>, SpinorField<Real>&);                           \
  template void set_zero<Real>(SpinorField<Real>&);                                         \
  template Complex<double> dot<Real>(const SpinorField<Real>&, const SpinorField<Real>&);   \
  template double norm2<Real>(const SpinorField<Real>&);                                    \
  template double axpy_norm2<Real>(Complex<double>, const SpinorField<Real>&, SpinorField<Real>&); \
  template void axpy_xpay<Real>(Complex<double>, SpinorField<Real>&, SpinorField<Real>&, const SpinorField<Real>&, \
                                Complex<double>);                                            \
  template DotAndNorm2 dot_norm2<Real>(const SpinorField<Real>&, const SpinorField<Real>&);                     \
  template void axpy_then_xpay<Real>(Complex<double>, const SpinorField<Real>&, SpinorField<Real>&,             \
                                     const SpinorField<Real>&, Complex<double>);                               \
  template Norm2AndDot axpbypz_axpy_norm2_dot<Real>(Complex<double>, const SpinorField<Real>&, Complex<double>, \
                                                    SpinorField<Real>&, SpinorField<Real>&, Complex<double>,   \
                                                    const SpinorField<Real>&, const SpinorField<Real>&);
LQCD_INSTANTIATE_SPINOR_BLAS(double)
LQCD_INSTANTIATE_SPINOR_BLAS(float)
LQCD_INSTANTIATE_SPINOR_BLAS(Half)
#undef LQCD_INSTANTIATE_SPINOR_BLAS
// The batched Gram-Schmidt serves the GCRs, whose fields are double or float.
#define LQCD_INSTANTIATE_MULTI_BLAS(Real)                                                                     \
  template std::vector<Complex<double>> multi_dot<Real>(const std::vector<const SpinorField<Real>*>&,          \
                                                        const SpinorField<Real>&, double*);                   \
  template void multi_axpy<Real>(const std::vector<Complex<double>>&, const std::vector<const SpinorField<Real>*>&, \
                                 SpinorField<Real>&, double);
LQCD_INSTANTIATE_MULTI_BLAS(double)
LQCD_INSTANTIATE_MULTI_BLAS(float)
#undef LQCD_INSTANTIATE_MULTI_BLAS

template void convert_precision<double, double>(SpinorField<double>&, const SpinorField<double>&);
template void convert_precision<float, double>(SpinorField<float>&, const SpinorField<double>&);
template void convert_precision<double, float>(SpinorField<double>&, const SpinorField<float>&);
template void convert_precision<Half, double>(SpinorField<Half>&, const SpinorField<double>&);
template void convert_precision<double, Half>(SpinorField<double>&, const SpinorField<Half>&);
template void convert_precision<Half, float>(SpinorField<Half>&, const SpinorField<float>&);
template void convert_precision<float, Half>(SpinorField<float>&, const SpinorField<Half>&);

}  // namespace lqcd
