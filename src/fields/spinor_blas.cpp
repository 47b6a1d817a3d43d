#include "fields/spinor_blas.hpp"

#include "core/dispatch.hpp"
#include "fields/spinor_blas_kernels.hpp"

namespace lqcd {

namespace {
void check_same_shape(const SpinorField<double>& x, const SpinorField<double>& y) {
  if (x.subset() != y.subset() || x.location() != y.location() || !(x.geometry() == y.geometry()))
    fail("internal: spinor fields of different shape or location in a vector operation");
}
}  // namespace

void axpy(Complex<double> a, const SpinorField<double>& x, SpinorField<double>& y) {
  check_same_shape(x, y);
  for_each(y.location(), y.sites(), AxpyKernel{a, x.view(), y.view()});
}

void xpay(const SpinorField<double>& x, Complex<double> a, SpinorField<double>& y) {
  check_same_shape(x, y);
  for_each(y.location(), y.sites(), XpayKernel{a, x.view(), y.view()});
}

void scale(Complex<double> a, SpinorField<double>& x) { for_each(x.location(), x.sites(), ScaleKernel{a, x.view()}); }

void set_zero(SpinorField<double>& x) { for_each(x.location(), x.sites(), ZeroKernel{x.view()}); }

Complex<double> dot(const SpinorField<double>& x, const SpinorField<double>& y) {
  check_same_shape(x, y);
  const Sums<2> s = reduce<Sums<2>>(x.location(), x.sites(), DotKernel{x.view(), y.view()});
  return {s[0], s[1]};
}

double norm2(const SpinorField<double>& x) {
  return reduce<Sums<1>>(x.location(), x.sites(), Norm2Kernel{x.view()})[0];
}

}  // namespace lqcd
