#include "solvers/multigrid/coarse_field.hpp"

#include <algorithm>
#include <span>

#include "comm/communicator.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "solvers/multigrid/coarse_field_kernels.hpp"

namespace lqcd {

namespace {
template <typename A, typename B>
void check_same_shape(const CoarseField<A>& x, const CoarseField<B>& y) {
  if (x.size() != y.size() || x.dof() != y.dof() || x.location() != y.location())
    fail("internal: coarse fields of different shape or location in a vector operation");
}
}  // namespace

template <typename Real>
void axpy(Complex<double> a, const CoarseField<Real>& x, CoarseField<Real>& y) {
  check_same_shape(x, y);
  for_each(y.location(), y.size(), CoarseAxpyKernel<Real>{Complex<Real>(a), x.view().data, y.view().data});
}

template <typename Real>
double axpy_norm2(Complex<double> a, const CoarseField<Real>& x, CoarseField<Real>& y) {
  check_same_shape(x, y);
  return comm::sum(y.process_grid(),
                   reduce<Sums<1>>(y.location(), y.size(),
                                   CoarseAxpyNorm2Kernel<Real>{Complex<Real>(a), x.view().data, y.view().data})[0]);
}

template <typename Real>
void scale(Complex<double> a, CoarseField<Real>& x) {
  for_each(x.location(), x.size(), CoarseScaleKernel<Real>{Complex<Real>(a), x.view().data});
}

template <typename Real>
void set_zero(CoarseField<Real>& x) {
  for_each(x.location(), x.size(), CoarseZeroKernel<Real>{x.view().data});
}

template <typename Real>
Complex<double> dot(const CoarseField<Real>& x, const CoarseField<Real>& y) {
  check_same_shape(x, y);
  Sums<2> s = reduce<Sums<2>>(x.location(), x.size(), CoarseDotKernel<Real>{x.view().data, y.view().data});
  comm::sum(x.process_grid(), s.v);
  return {s[0], s[1]};
}

template <typename Real>
double norm2(const CoarseField<Real>& x) {
  return comm::sum(x.process_grid(), reduce<Sums<1>>(x.location(), x.size(), CoarseNorm2Kernel<Real>{x.view().data})[0]);
}

template <typename To, typename From>
void convert_precision(CoarseField<To>& out, const CoarseField<From>& in) {
  check_same_shape(out, in);
  for_each(out.location(), out.size(), CoarseConvertKernel<To, From>{out.view().data, in.view().data});
}

template <typename Real>
void gcr_orthogonalise(std::vector<CoarseField<Real>>& q, std::vector<CoarseField<Real>>& z, int k) {
  CoarseField<Real>& qk = q[std::size_t(k)];
  CoarseField<Real>& zk = z[std::size_t(k)];
  const Location loc = qk.location();
  for (int pass = 0; pass < 2; ++pass) {
    // All the coefficients from the same q_k (classical), then both updates.
    std::vector<Complex<double>> beta(static_cast<std::size_t>(k));
    for (int j0 = 0; j0 < k; j0 += kCoarseBatch) {
      CoarseMultiDotKernel<Real> dk{};
      dk.y = qk.view().data;
      dk.n = std::min(kCoarseBatch, k - j0);
      for (int j = 0; j < dk.n; ++j) dk.x[j] = q[std::size_t(j0 + j)].view().data;
      Sums<2 * kCoarseBatch> s = reduce<Sums<2 * kCoarseBatch>>(loc, qk.size(), dk);
      comm::sum(qk.process_grid(), std::span<double>(s.v, std::size_t(2 * dk.n)));
      for (int j = 0; j < dk.n; ++j) beta[std::size_t(j0 + j)] = Complex<double>(s[2 * j], s[2 * j + 1]);
    }
    for (int j0 = 0; j0 < k; j0 += kCoarseBatch) {
      CoarseMultiAxpyKernel<Real> aq{}, az{};
      aq.n = az.n = std::min(kCoarseBatch, k - j0);
      aq.y = qk.view().data;
      az.y = zk.view().data;
      for (int j = 0; j < aq.n; ++j) {
        const Complex<double> b = beta[std::size_t(j0 + j)];
        aq.a[j] = az.a[j] = Complex<Real>(Real(-b.re), Real(-b.im));
        aq.x[j] = q[std::size_t(j0 + j)].view().data;
        az.x[j] = z[std::size_t(j0 + j)].view().data;
      }
      for_each(loc, qk.size(), aq);
      for_each(loc, zk.size(), az);
    }
  }
}

#define LQCD_INSTANTIATE_COARSE_BLAS(Real)                                                           \
  template void axpy<Real>(Complex<double>, const CoarseField<Real>&, CoarseField<Real>&);           \
  template double axpy_norm2<Real>(Complex<double>, const CoarseField<Real>&, CoarseField<Real>&);   \
  template void scale<Real>(Complex<double>, CoarseField<Real>&);                                    \
  template void set_zero<Real>(CoarseField<Real>&);                                                  \
  template Complex<double> dot<Real>(const CoarseField<Real>&, const CoarseField<Real>&);            \
  template double norm2<Real>(const CoarseField<Real>&);                                             \
  template void gcr_orthogonalise<Real>(std::vector<CoarseField<Real>>&, std::vector<CoarseField<Real>>&, int);
LQCD_INSTANTIATE_COARSE_BLAS(double)
LQCD_INSTANTIATE_COARSE_BLAS(float)
#undef LQCD_INSTANTIATE_COARSE_BLAS
template void convert_precision<float, double>(CoarseField<float>&, const CoarseField<double>&);
template void convert_precision<double, float>(CoarseField<double>&, const CoarseField<float>&);

}  // namespace lqcd
