// The stream-resident CG cycles (resident_loop.hpp says how a resident cycle works). The host loop of
// solve_cg_hermitian waits twice per iteration, for <p, A p> and for ||r||^2; CGNR's (solve_cg) three
// times, for ||M p||^2, ||r||^2 and ||M^dag r||^2. Here none of them: CG's scalars stay on the device
// (resident_cg_kernels.hpp).
#include "core/dispatch.hpp"
#include "solvers/krylov/resident_cg_kernels.hpp"
#include "solvers/krylov/resident_loop.hpp"

namespace lqcd::solver_detail {

namespace {

// A cycle's scalars, set to start with rho_0 = rho0, and the progress page, reset.
std::pair<CgScalars*, ResidentProgress*> start_cycle(Location loc, double rho0) {
  CgScalars* const s = resident_memory<CgScalars>(loc);
  ResidentProgress* const progress = resident_progress_page();
  for_each(loc, 1, CgStartKernel{s, rho0});
  return {s, progress};
}

}  // namespace

template <typename Real>
Stop resident_cg_cycle(Krylov<Real>& k, const LinearOperator<Real>& A, SpinorField<Real>& x, SpinorField<Real>& r,
                       SpinorField<Real>& p, SpinorField<Real>& q, double& r2) {
  const Location loc = r.location();
  const std::int64_t sites = r.sites();
  const Geometry& geom = r.geometry();
  const auto [s, progress] = start_cycle(loc, r2);
  p.copy_from(r);
  // An operator application with <p, A p>, the residual update with its norm, the solution update
  // with the next direction (only x's update where the iteration converged).
  static constexpr ResidentStop kStops[] = {{"<p, A p> <= 0", false, false, {1, kDotFlops}}};
  static constexpr ResidentMethod kCg{.running = {1, kDotFlops + kAxpyFlops + kNorm2Flops + 2 * kAxpyFlops},
                                      .converged = {1, kDotFlops + kAxpyFlops + kNorm2Flops + kAxpyFlops},
                                      .not_finite = {1, kDotFlops + kAxpyFlops + kNorm2Flops},
                                      .stops = kStops};
  return follow_iterations(k, loc, progress, r2, kCg, [&](int e) {
    const auto [a, b] = A.apply_for_inner(q, p);
    if (a == b)
      global_reduce_into<Sums<1>>(geom, loc, sites, Norm2Kernel<Real>{a->view()}, StorePAp{s});
    else
      global_reduce_into<Sums<2>>(geom, loc, sites, DotKernel<Real>{a->view(), b->view()}, StorePAp{s});
    global_reduce_into<Sums<1>>(geom, loc, sites, CgResidualUpdate<Real>{s, e, q.view(), r.view()},
                                CgResidualFinish{s, progress, e, k.threshold(), true});
    for_each(loc, sites, CgSolutionUpdate<Real>{s, e, p.view(), x.view(), r.view()});
  });
}

template <typename Real>
Stop resident_cgnr_cycle(Krylov<Real>& k, const LinearOperator<Real>& M, SpinorField<Real>& x, SpinorField<Real>& r,
                         SpinorField<Real>& z, SpinorField<Real>& p, SpinorField<Real>& q, double& r2) {
  // The cycle's start waits for ||M^dag r||^2 once, as the host loop does.
  k.apply_dagger(z, r);
  const double gamma = k.norm2(z);
  if (!(gamma > 0)) {
    k.breakdown("||M^dag r|| = 0");
    return Stop::Breakdown;
  }
  const Location loc = r.location();
  const std::int64_t sites = r.sites();
  const Geometry& geom = r.geometry();
  const auto [s, progress] = start_cycle(loc, gamma);
  p.copy_from(z);
  // M p and ||M p||^2, the residual update with its norm, M^dag r and its norm, the solution update
  // with the next direction (where the iteration converged: x's update, and no M^dag r).
  static constexpr ResidentStop kStops[] = {{"||M p|| = 0", false, false, {1, kNorm2Flops}}};
  static constexpr ResidentMethod kCgnr{.running = {2, 3 * kNorm2Flops + 3 * kAxpyFlops},
                                        .converged = {1, 2 * kNorm2Flops + 2 * kAxpyFlops},
                                        .not_finite = {1, 2 * kNorm2Flops + kAxpyFlops},
                                        .stops = kStops};
  return follow_iterations(k, loc, progress, r2, kCgnr, [&](int e) {
    M.apply(q, p);
    global_reduce_into<Sums<1>>(geom, loc, sites, Norm2Kernel<Real>{q.view()}, StorePAp{s});
    global_reduce_into<Sums<1>>(geom, loc, sites, CgResidualUpdate<Real>{s, e, q.view(), r.view()},
                                CgResidualFinish{s, progress, e, k.threshold(), false});
    M.apply_dagger(z, r);
    global_reduce_into<Sums<1>>(geom, loc, sites, Norm2Kernel<Real>{z.view()}, StoreRho{s, e});
    for_each(loc, sites, CgSolutionUpdate<Real>{s, e, p.view(), x.view(), z.view()});
  });
}

#define LQCD_INSTANTIATE_RESIDENT_CG(Real)                                                                    \
  template Stop resident_cg_cycle<Real>(Krylov<Real>&, const LinearOperator<Real>&, SpinorField<Real>&,    \
                                        SpinorField<Real>&, SpinorField<Real>&, SpinorField<Real>&, double&);    \
  template Stop resident_cgnr_cycle<Real>(Krylov<Real>&, const LinearOperator<Real>&, SpinorField<Real>&,  \
                                          SpinorField<Real>&, SpinorField<Real>&, SpinorField<Real>&,       \
                                          SpinorField<Real>&, double&);
LQCD_INSTANTIATE_RESIDENT_CG(double)
LQCD_INSTANTIATE_RESIDENT_CG(float)
LQCD_INSTANTIATE_RESIDENT_CG(Half)
#undef LQCD_INSTANTIATE_RESIDENT_CG

}  // namespace lqcd::solver_detail
