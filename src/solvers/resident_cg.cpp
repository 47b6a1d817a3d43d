// The stream-resident CG cycle (issue 4, scope 3: solvers with no host round trip in the loop). The
// host loop of solve_cg_hermitian waits twice per iteration, for <p, A p> and for ||r||^2, and the
// device idles while the host reads the number and queues the next kernels. Here the scalars stay on
// the device (resident_cg_kernels.hpp) and the host queues iteration k + 1 before it waits for
// iteration k's residual, which the device publishes to page-locked memory: the stream always has
// work, and the host follows one iteration behind.
//
// Queuing ahead costs an operator application in vain when the iteration being waited for turns out
// to be the last. So the host stops queuing ahead (waits for each iteration before queuing the next)
// once two iterations at the fastest rate of the last few could reach the tolerance: the end of a
// cycle costs at most the synchronisation of the host loop, and a misjudged end one application.
#include <algorithm>
#include <array>
#include <mutex>

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

}  // namespace

template <typename Real>
Stop resident_cg_cycle(Krylov<Real>& k, const LinearOperator<Real>& A, SpinorField<Real>& x, SpinorField<Real>& r,
                       SpinorField<Real>& p, SpinorField<Real>& q, double& r2) {
  const Location loc = r.location();
  const std::int64_t sites = r.sites();
  ResidentCgMemory& memory = resident_memory(loc);
  CgScalars* const s = memory.scalars.data();
  CgProgress* const progress = reinterpret_cast<CgProgress*>(memory.progress.data());
  const double threshold = k.threshold();

  publish_count(&progress->completed, 0);
  for_each(loc, 1, CgStartKernel{s, r2});
  p.copy_from(r);

  // Iteration e's kernels (resident_cg_kernels.hpp); counted when the host takes its result.
  const auto queue_iteration = [&](int e) {
    const auto [a, b] = A.apply_for_inner(q, p);
    if (a == b)
      reduce_into<Sums<1>>(loc, sites, Norm2Kernel<Real>{a->view()}, StorePAp{s});
    else
      reduce_into<Sums<2>>(loc, sites, DotKernel<Real>{a->view(), b->view()}, StorePAp{s});
    reduce_into<Sums<1>>(loc, sites, CgResidualUpdate<Real>{s, e, q.view(), r.view()},
                         CgResidualFinish{s, progress, e, threshold});
    for_each(loc, sites, CgSolutionUpdate<Real>{s, e, p.view(), x.view(), r.view()});
  };

  // On the host every queued iteration has run by the time it is queued: nothing to gain by queuing
  // ahead.
  const bool ahead_possible = loc == Location::Device;
  const int budget = k.iterations_left();
  ConvergenceWatch watch(r2);
  bool near = !ahead_possible;
  int queued = 0;
  for (int c = 0;; ++c) {
    const int queue_to = std::min(budget, near ? c + 1 : c + 2);
    while (queued < queue_to) queue_iteration(queued++);
    if (c >= queued) return Stop::Limit;
    wait_for_count(progress->completed, c + 1, "the stream-resident CG");
    const int status = progress->status[c % kCgProgressRing];
    // An operator application, <p, A p>, the residual update with its norm, the solution update.
    k.count(1, kDotFlops + kAxpyFlops + kNorm2Flops + 2 * kAxpyFlops);
    if (status == kCgBreakdown) {
      k.breakdown("<p, A p> <= 0");
      return Stop::Breakdown;
    }
    r2 = progress->r2[c % kCgProgressRing];
    k.iterate(r2);  // throws on NaN / Inf
    if (status == kCgConverged) return Stop::Estimate;
    watch.add(r2);
    near = near || watch.near(threshold);
  }
}

#define LQCD_INSTANTIATE_RESIDENT_CG(Real)                                                                    \
  template Stop resident_cg_cycle<Real>(Krylov<Real>&, const LinearOperator<Real>&, SpinorField<Real>&,    \
                                        SpinorField<Real>&, SpinorField<Real>&, SpinorField<Real>&, double&);
LQCD_INSTANTIATE_RESIDENT_CG(double)
LQCD_INSTANTIATE_RESIDENT_CG(float)
LQCD_INSTANTIATE_RESIDENT_CG(Half)
#undef LQCD_INSTANTIATE_RESIDENT_CG

}  // namespace solver_detail
}  // namespace lqcd
