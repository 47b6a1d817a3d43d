#include "dirac/clover_field.hpp"

#include "comm/communicator.hpp"
#include "core/dispatch.hpp"
#include "fields/precision_kernels.hpp"

namespace lqcd {

template <typename Real>
CloverField<Real>::CloverField(const GaugeField<double>& U, double kappa, double csw, double mu, bool trace_kept,
                               const QuarkTimeBoundary& boundary)
  requires std::is_same_v<Real, double>
    : U_(&U),
      geom_(U.geometry()),
      kappa_(kappa),
      csw_(csw),
      mu_(mu),
      trace_kept_(trace_kept),
      boundary_(boundary),
      stride_(padded_stride(U.geometry().half_volume(), sizeof(Complex<Real>))),
      data_(std::size_t(stride_) * CloverView<Real>::kComponents * 2, U.location()) {
  if (!(kappa > 0)) fail("kappa: must be positive (got {})", kappa);
  compute();
}

template <typename Real>
CloverField<Real>::CloverField(const CloverField<double>& c)
  requires std::is_same_v<Real, float>
    : U_(nullptr),
      geom_(c.geometry()),
      kappa_(c.kappa()),
      csw_(c.csw()),
      mu_(c.mu()),
      trace_kept_(c.trace_kept()),
      boundary_(c.time_boundary()),
      stride_(padded_stride(c.geometry().half_volume(), sizeof(Complex<Real>))),
      data_(std::size_t(stride_) * CloverView<Real>::kComponents * 2, c.location()) {
  assign(c);
}

template <typename Real>
void CloverField<Real>::assign(const CloverField<double>& c)
  requires std::is_same_v<Real, float>
{
  if (!(c.geometry() == geom_) || c.location() != location() || c.kappa() != kappa_ || c.csw() != csw_ ||
      c.mu() != mu_ || c.trace_kept() != trace_kept_)
    fail("internal: CloverField<float>::assign: a clover field of another lattice, device or quark");
  const std::int64_t vh = geom_.half_volume();
  for_each(location(), CloverView<Real>::kComponents * 2 * vh,
           ConvertComponentsKernel<Real, double>{data_.data(), stride_, c.view().data, c.stride(), vh});
}

template <typename Real>
void CloverField<Real>::compute()
  requires std::is_same_v<Real, double>
{
  for_each(location(), geometry().volume(),
           CloverComputeKernel{U_->view(), view(), kappa_ * csw_, trace_kept_, boundary_,
                               2.0 * kappa_ * (boundary_.c_F - 1.0)});
}

template <typename Real>
CloverStats CloverField<Real>::stats(int parity) const
  requires std::is_same_v<Real, double>
{
  const std::int64_t n = parity < 0 ? geometry().volume() : geometry().half_volume();
  CloverStats c = reduce<CloverStats>(location(), n, CloverStatsKernel{view(), parity < 0 ? -1 : parity});
  const Dims& grid = geometry().grid;
  double sums[2] = {c.log_det, c.bad_blocks};
  comm::sum(grid, sums);
  c.log_det = sums[0];
  c.bad_blocks = sums[1];
  c.min_pivot = -comm::max(grid, -c.min_pivot);
  return c;
}

template <typename Real>
void CloverField<Real>::run_site(SpinorField<Real>& out, const SpinorField<Real>& in, int inverse, int dagger) const {
  if (in.subset() != out.subset()) fail("internal: clover term: input and output hold different sites");
  if (in.location() != location() || out.location() != location())
    fail("internal: clover term: fields and clover field on different devices");
  if (!(in.geometry() == geometry()) || !(out.geometry() == geometry()))
    fail("internal: clover term: fields of another lattice");
  for_each(location(), out.sites(), CloverSiteKernel<Real>{view(), in.view(), out.view(), inverse, dagger});
}

template <typename Real>
void CloverField<Real>::apply(SpinorField<Real>& out, const SpinorField<Real>& in, bool dagger) const {
  run_site(out, in, 0, dagger ? 1 : 0);
}

template <typename Real>
void CloverField<Real>::apply_inverse(SpinorField<Real>& out, const SpinorField<Real>& in, bool dagger) const {
  run_site(out, in, 1, dagger ? 1 : 0);
}

template class CloverField<double>;
template class CloverField<float>;

}  // namespace lqcd
