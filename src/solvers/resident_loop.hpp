#pragma once
// The host side of the stream-resident Krylov cycles (resident_cg.cpp, resident_bicgstab.cpp; issue 4,
// scope 3: solvers with no host round trip in the loop). A host loop waits for every reduction, and
// the device idles while the host reads the number and queues the next kernels. In a resident cycle
// the method's scalars stay on the device, where the reductions' finishers write them and the update
// kernels read them, and the host queues iteration k + 1 before it waits for iteration k's residual,
// which the device publishes to page-locked memory (ResidentProgress): the stream always has work, and
// the host follows one iteration behind.
//
// Queuing ahead costs an iteration's work in vain when the iteration waited for turns out to be the
// last. So the host stops queuing ahead (waits for each iteration before queuing the next) once two
// iterations at the fastest rate of the last few could reach the tolerance: the end of a cycle costs
// at most the synchronisation of the host loop, and a misjudged end one iteration.

#include <algorithm>
#include <array>
#include <iterator>
#include <mutex>
#include <span>

#include "comm/communicator.hpp"
#include "comm/device_messages.hpp"
#include "core/copy_stream.hpp"
#include "core/device_counter.hpp"
#include "core/dispatch.hpp"
#include "core/memory.hpp"
#include "solvers/krylov_detail.hpp"
#include "solvers/resident_progress.hpp"

namespace lqcd::solver_detail {

// The device scalars of a method (T: its struct; or a reduction's local sums) and the progress page,
// kept for the life of the process: per cycle they would cost a cudaMalloc / cudaFree pair (cudaFree
// synchronises the device) and a cudaMallocHost. One of each per location (a process drives one
// device: select_device); cycles run one after another. The progress page's count is reset to 0.
ResidentProgress* resident_progress_page();
template <typename T>
T* resident_memory(Location loc) {
  static std::mutex mutex;
  static std::array<Buffer<T>, 2> memory;
  const std::lock_guard<std::mutex> lock(mutex);
  Buffer<T>& m = memory[loc == Location::Device ? 1 : 0];
  if (!m.data()) m = Buffer<T>(1, loc);
  return m.data();
}

// reduce_into over the sites of every process of `geom`: on one process reduce_into itself; on
// several the local sums are summed over the ranks before the finisher sees them, in the stream on
// the device (an NCCL all-reduce: stream_resident_solver checks that there is one) and through MPI on
// the host.
template <typename R, typename F, typename Finish>
void global_reduce_into(const Geometry& geom, Location loc, std::int64_t n, const F& f, const Finish& finish) {
  if (geom.processes() == 1) return reduce_into<R>(loc, n, f, finish);
  if (loc == Location::Host) {
    R sum = HostExec::reduce<R>(n, f);
    comm::sum(geom.grid, sum.v);
    return finish(sum);
  }
  R* const sum = resident_memory<R>(loc);
  reduce_into<R>(loc, n, f, StoreLocalSum<R>{sum});
  comm::sum_on_device(sum->v, int(std::size(sum->v)), nullptr);
  for_each(loc, 1, FinishGlobalSum<R, Finish>{sum, finish});
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

// A kind of breakdown a method's finishers report (status kResidentBreakdown + its index).
struct ResidentBreakdown {
  const char* what;  // the quantity, for Krylov::breakdown
  bool counted;      // found after the iteration's residual update: the iteration counts, with its r2
  bool at_next;      // found at the start of the next iteration, where the host loop checks the limit first
};

// Queues the iterations of a cycle (queue(e) queues iteration e's kernels, whose last finisher reports
// e) and follows them as the device publishes their residuals. Each iteration taken is counted as
// `applications` operator applications and `blas_flops` per site.
template <typename Real, typename QueueIteration>
Stop follow_iterations(Krylov<Real>& k, Location loc, ResidentProgress* progress, double& r2,
                       std::span<const ResidentBreakdown> breakdowns, double applications, double blas_flops,
                       QueueIteration&& queue) {
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
    wait_for_count(progress->completed, c + 1, "a stream-resident solver");
    const int status = progress->status[c % kResidentProgressRing];
    const double r2_c = progress->r2[c % kResidentProgressRing];
    k.count(applications, blas_flops);
    if (status >= kResidentBreakdown) {
      const ResidentBreakdown& b = breakdowns[std::size_t(status - kResidentBreakdown)];
      if (b.counted) {
        r2 = r2_c;
        k.iterate(r2);
      }
      if (b.at_next && k.at_limit()) return Stop::Limit;
      k.breakdown(b.what);
      return Stop::Breakdown;
    }
    r2 = r2_c;
    k.iterate(r2);  // throws on NaN / Inf
    if (status == kResidentConverged) return Stop::Estimate;
    watch.add(r2);
    near = near || watch.near(k.threshold());
  }
}

}  // namespace lqcd::solver_detail
