#include "dirac/clover_field.hpp"

#include "core/dispatch.hpp"

namespace lqcd {

CloverField::CloverField(const GaugeField<double>& U, double kappa, double csw, double mu)
    : U_(U),
      kappa_(kappa),
      csw_(csw),
      mu_(mu),
      stride_(padded_stride(U.geometry().half_volume(), sizeof(Complex<double>))),
      data_(std::size_t(stride_) * CloverView::kComponents * 2, U.location()) {
  if (!(kappa > 0)) fail("fermion.kappa: must be positive (got {})", kappa);
  compute();
}

void CloverField::compute() {
  for_each(location(), geometry().volume(), CloverComputeKernel{U_.view(), view(), kappa_ * csw_});
}

CloverStats CloverField::stats(int parity) const {
  const std::int64_t n = parity < 0 ? geometry().volume() : geometry().half_volume();
  return reduce<CloverStats>(location(), n, CloverStatsKernel{view(), parity < 0 ? -1 : parity});
}

void CloverField::run_site(SpinorField<double>& out, const SpinorField<double>& in, int inverse, int dagger) const {
  if (in.subset() != out.subset()) fail("internal: clover term: input and output hold different sites");
  if (in.location() != location() || out.location() != location())
    fail("internal: clover term: fields and clover field on different devices");
  if (!(in.geometry() == geometry()) || !(out.geometry() == geometry()))
    fail("internal: clover term: fields of another lattice");
  for_each(location(), out.sites(), CloverSiteKernel{view(), in.view(), out.view(), inverse, dagger});
}

void CloverField::apply(SpinorField<double>& out, const SpinorField<double>& in, bool dagger) const {
  run_site(out, in, 0, dagger ? 1 : 0);
}

void CloverField::apply_inverse(SpinorField<double>& out, const SpinorField<double>& in, bool dagger) const {
  run_site(out, in, 1, dagger ? 1 : 0);
}

}  // namespace lqcd
