// The stream-resident CG cycles (issue 4, scope 3: solvers with no host round trip in the loop). The
// host loop of solve_cg_hermitian waits twice per iteration, for <p, A p> and for ||r||^2 (CGNR's,
// solve_cg, three times: ||M p||^2, ||r||^2, ||M^dag r||^2), and the device idles while the host
// reads the number and queues the next kernels. Here the scalars stay on the device
// (resident_cg_kernels.hpp) and the host queues iteration k + 1 before it waits for iteration k's
// residual, which the device publishes to page-locked memory: the stream always has work, and the
// host follows one iteration behind.
//
// Queuing ahead costs an operator application in vain when the iteration being waited for turns out
// to be the last. So the host stops queuing ahead (waits for each iteration before queuing the next)
// once two iterations at the fastest rate of the last few could reach the tolerance: the end of a
// cycle costs at most the synchronisation of the host loop, and a misjudged end one application.
#include <algorithm>
#include <array>
#include <mutex>
#include <utility>

#include "core/copy_stream.hpp"
#include "core/device_counter.hpp"
#include "core/dispatch.hpp"
#include "core/environment_switch.hpp"
#include "solvers/krylov_detail.hpp"
#include "solvers/resident_cg_kernels.hpp"

namespace lqcd {

bool stream_resident_cg(Location loc, int processes) {
  if (processes > 1) return false;
  return switch_setting("LQCD_STREAM_RESIDENT_CG").value_or(loc == Location::Device);
}

namespace solver_detail {

namespace {

// CG's scalars and the progress page, kept for the life of the process: per cycle they would cost a
// cudaMalloc / cudaFree pair (cudaFree synchronises the device) and a cudaMallocHost. One set per
// location (a process drives one device: select_device); cycles run one after another.
struct ResidentCgMemory {
  Buffer<CgScalars> scalars;
  PinnedBuffer progress;
};

ResidentCgMemory& resident_memory(Location loc) {
  static std::mutex mutex;
  static std::array<ResidentCgMemory, 2> memory;
  const std::lock_guard<std::mutex> lock(mutex);
  ResidentCgMemory& m = memory[loc == Location::Device ? 1 : 0];
  if (!m.scalars.data()) m.scalars = Buffer<CgScalars>(1, loc);
  m.progress.reserve(sizeof(CgProgress));
  return m;
}

// A cycle's scalars, set to start with rho_0 = rho0, and its progress page, reset.
std::pair<CgScalars*, CgProgress*> start_cycle(Location loc, double rho0) {
  ResidentCgMemory& memory = resident_memory(loc);
  CgScalars* const s = memory.scalars.data();
  CgProgress* const progress = reinterpret_cast<CgProgress*>(memory.progress.data());
  publish_count(&progress->completed, 0);
  for_each(loc, 1, CgStartKernel{s, rho0});
  return {s, progress};
}

// Whether the next iteration might meet the threshold: whether ||r||^2 would, after one iteration
// that reduces it by the square of the largest one-iteration reduction among the last kWindow.
class ConvergenceWatch {
 public:
  explicit ConvergenceWatch(double r2) : last_(r2) {}
  void add(double r2) {
    ratios_[std::size_t(count_++ % kWindow)] = last_ > 0 ? r2 / last_ : 0.0;
    last_ = r2;
  }
  bool near(double threshold) const {
    const int n = std::min(count_, kWindow);
    const double fastest = n ? *std::min_element(ratios_.begin(), ratios_.begin() + n) : 1.0;
    return last_ * std::min(fastest, 1.0) * std::min(fastest, 1.0) <= threshold;
  }

 private:
  static constexpr int kWindow = 8;
  double last_;
  int count_ = 0;
  std::array<double, kWindow> ratios_{};
};

// Queues the iterations of a cycle (queue(e) queues iteration e's kernels, with CgResidualFinish for
// e) and follows them as the device publishes their residuals: the part the two forms of CG share.
// Each iteration taken is counted as `applications` operator applications and `blas_flops` per site.
template <typename Real, typename QueueIteration>
Stop follow_iterations(Krylov<Real>& k, Location loc, CgProgress* progress, double& r2, const char* breakdown_what,
                       double applications, double blas_flops, QueueIteration&& queue) {
  // On the host every queued iteration has run by the time it is queued: nothing to gain by queuing
  // ahead.
  const int budget = k.iterations_left();
  ConvergenceWatch watch(r2);
  bool near = loc == Location::Host;
  int queued = 0;
  for (int c = 0;; ++c) {
    const int queue_to = std::min(budget, near ? c + 1 : c + 2);
    while (queued < queue_to) queue(queued++);
    if (c >= queued) return Stop::Limit;
    wait_for_count(progress->completed, c + 1, "the stream-resident CG");
    const int status = progress->status[c % kCgProgressRing];
    k.count(applications, blas_flops);
    if (status == kCgBreakdown) {
      k.breakdown(breakdown_what);
      return Stop::Breakdown;
    }
    r2 = progress->r2[c % kCgProgressRing];
    k.iterate(r2);  // throws on NaN / Inf
    if (status == kCgConverged) return Stop::Estimate;
    watch.add(r2);
    near = near || watch.near(k.threshold());
  }
}

}  // namespace

template <typename Real>
Stop resident_cg_cycle(Krylov<Real>& k, const LinearOperator<Real>& A, SpinorField<Real>& x, SpinorField<Real>& r,
                       SpinorField<Real>& p, SpinorField<Real>& q, double& r2) {
  const Location loc = r.location();
  const std::int64_t sites = r.sites();
  const auto [s, progress] = start_cycle(loc, r2);
  p.copy_from(r);
  // An operator application, <p, A p>, the residual update with its norm, the solution update.
  return follow_iterations(k, loc, progress, r2, "<p, A p> <= 0", 1, kDotFlops + kAxpyFlops + kNorm2Flops + 2 * kAxpyFlops,
                           [&](int e) {
                             const auto [a, b] = A.apply_for_inner(q, p);
                             if (a == b)
                               reduce_into<Sums<1>>(loc, sites, Norm2Kernel<Real>{a->view()}, StorePAp{s});
                             else
                               reduce_into<Sums<2>>(loc, sites, DotKernel<Real>{a->view(), b->view()}, StorePAp{s});
                             reduce_into<Sums<1>>(loc, sites, CgResidualUpdate<Real>{s, e, q.view(), r.view()},
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
  const auto [s, progress] = start_cycle(loc, gamma);
  p.copy_from(z);
  // M p and ||M p||^2, the residual update with its norm, M^dag r and its norm, the solution update.
  return follow_iterations(k, loc, progress, r2, "||M p|| = 0", 2, 3 * kNorm2Flops + 3 * kAxpyFlops, [&](int e) {
    M.apply(q, p);
    reduce_into<Sums<1>>(loc, sites, Norm2Kernel<Real>{q.view()}, StorePAp{s});
    reduce_into<Sums<1>>(loc, sites, CgResidualUpdate<Real>{s, e, q.view(), r.view()},
                         CgResidualFinish{s, progress, e, k.threshold(), false});
    M.apply_dagger(z, r);
    reduce_into<Sums<1>>(loc, sites, Norm2Kernel<Real>{z.view()}, StoreRho{s, e});
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

}  // namespace solver_detail
}  // namespace lqcd
