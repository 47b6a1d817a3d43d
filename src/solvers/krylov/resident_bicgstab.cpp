// The stream-resident BiCGStab cycle (resident_loop.hpp says how a resident cycle works). The host
// loop of solve_bicgstab waits four times per iteration, for <r0, v>, ||s||^2, <t, s> and ||r||^2;
// here it waits for none of them: BiCGStab's scalars stay on the device
// (resident_bicgstab_kernels.hpp).
#include "core/dispatch.hpp"
#include "solvers/krylov/resident_bicgstab_kernels.hpp"
#include "solvers/krylov/resident_loop.hpp"

namespace lqcd::solver_detail {

template <typename Real>
Stop resident_bicgstab_cycle(Krylov<Real>& k, const LinearOperator<Real>& M, SpinorField<Real>& x,
                             SpinorField<Real>& r, SpinorField<Real>& r0, SpinorField<Real>& p, SpinorField<Real>& v,
                             SpinorField<Real>& t, double& r2) {
  // The cycle's start waits for <r0, r> once, as the host loop does.
  r0.copy_from(r);
  const Complex<double> rho0 = k.dot(r0, r);
  if (negligible(rho0, r2, r2)) {
    k.breakdown("rho = <r0, r> ~ 0");
    return Stop::Breakdown;
  }
  const Location loc = r.location();
  const std::int64_t sites = r.sites();
  const Geometry& geom = r.geometry();
  BiCgStabScalars* const s = resident_memory<BiCgStabScalars>(loc);
  ResidentProgress* const progress = resident_progress_page();
  for_each(loc, 1, BiCgStabStart{s, rho0, r2});
  p.copy_from(r);
  // Two operator applications and the five fused vector operations of bicgstab.cpp: the new direction
  // (not in a cycle's first iteration), <r0, v> with ||v||^2, s = r - alpha v with ||s||^2, <t, s>
  // with ||t||^2, and the x and r updates with ||r||^2 and <r0, r>. An iteration that stops before
  // its end counts what the host loop has made by then.
  static constexpr double direction = 2 * kAxpyFlops, r0v = kDotFlops + kNorm2Flops,
                          half_step = kAxpyFlops + kNorm2Flops, ts = kDotFlops + kNorm2Flops,
                          update = 3 * kAxpyFlops + kNorm2Flops + kDotFlops;
  static constexpr IterationWork kWhole{2, direction + r0v + half_step + ts + update};
  static constexpr ResidentStop kStops[] = {
      {"<r0, M p> ~ 0", false, false, {1, direction + r0v}},  // kR0vBreakdown
      {"omega = <t, s> / <t, t> ~ 0", true, false,
       {2, direction + r0v + half_step + ts + kAxpyFlops}},                    // kOmegaBreakdown: x += alpha p
      {"rho = <r0, r> ~ 0", true, true, kWhole},                               // kRhoBreakdown
      {nullptr, true, false, {1, direction + r0v + half_step + kAxpyFlops}}};  // kHalfStepConverged
  static constexpr ResidentMethod kBiCgStab{
      .running = kWhole, .converged = kWhole, .not_finite = kWhole, .first_skips = direction, .stops = kStops};
  return follow_iterations(k, loc, progress, r2, kBiCgStab, [&](int e) {
    if (e > 0) for_each(loc, sites, BiCgStabDirection<Real>{s, e, v.view(), p.view(), r.view()});
    M.apply(v, p);
    global_reduce_into<Sums<3>>(geom, loc, sites, DotNorm2Kernel<Real>{v.view(), r0.view()}, FinishAlpha{s, e});
    global_reduce_into<Sums<1>>(geom, loc, sites, BiCgStabHalfStep<Real>{s, e, v.view(), r.view()},
                                FinishHalfStep{s, e, k.threshold()});
    M.apply(t, r);
    global_reduce_into<Sums<3>>(geom, loc, sites, DotNorm2Kernel<Real>{t.view(), r.view()}, FinishOmega{s, e});
    global_reduce_into<Sums<3>>(geom, loc, sites,
                                BiCgStabUpdate<Real>{s, e, p.view(), r.view(), x.view(), t.view(), r0.view()},
                                FinishIteration{s, progress, e, k.threshold()});
  });
}

#define LQCD_INSTANTIATE_RESIDENT_BICGSTAB(Real)                                                                  \
  template Stop resident_bicgstab_cycle<Real>(Krylov<Real>&, const LinearOperator<Real>&, SpinorField<Real>&,  \
                                              SpinorField<Real>&, SpinorField<Real>&, SpinorField<Real>&,     \
                                              SpinorField<Real>&, SpinorField<Real>&, double&);
LQCD_INSTANTIATE_RESIDENT_BICGSTAB(double)
LQCD_INSTANTIATE_RESIDENT_BICGSTAB(float)
LQCD_INSTANTIATE_RESIDENT_BICGSTAB(Half)
#undef LQCD_INSTANTIATE_RESIDENT_BICGSTAB

}  // namespace lqcd::solver_detail
