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
#include "solvers/krylov/krylov_detail.hpp"
#include "solvers/krylov/resident_progress.hpp"

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

// The work of an iteration for the FLOP count (Krylov::count): operator applications and BLAS-1 FLOPs
// per site. The host loops count each operation as they make it, so an iteration that stops early
// counts less than a whole one; the resident cycles count what the host loop would have, so that
// both report the same FLOPs (resident_solver_test.cpp compares them).
struct IterationWork {
  double applications = 0, blas_flops = 0;
};

// One of a method's own stops (status kResidentMethodStop + its index), as its finishers report it.
struct ResidentStop {
  const char* breakdown;  // the quantity, for Krylov::breakdown; nullptr: the iteration converged
  bool counted;           // found after the iteration's residual update: the iteration counts, with its r2
  bool at_next;           // found at the start of the next iteration, where the host loop checks the limit first
  IterationWork work;     // what the host loop counts of the iteration
};

// What the host follows of a method's iterations: the work of each kind of end, and its own stops.
struct ResidentMethod {
  IterationWork running;     // an iteration that goes on
  IterationWork converged;   // one whose residual meets the threshold (kResidentConverged)
  IterationWork not_finite;  // one whose residual is NaN or Inf (kResidentNotFinite)
  double first_skips = 0;    // BLAS FLOPs per site that the first iteration of a cycle does not do
  std::span<const ResidentStop> stops;
};

// Queues the iterations of a cycle (queue(e) queues iteration e's kernels, whose last finisher reports
// e) and follows them as the device publishes their residuals, counting each one's work.
template <typename Real, typename QueueIteration>
Stop follow_iterations(Krylov<Real>& k, Location loc, ResidentProgress* progress, double& r2,
                       const ResidentMethod& method, QueueIteration&& queue) {
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
    const ResidentStop* stop =
        status >= kResidentMethodStop ? &method.stops[std::size_t(status - kResidentMethodStop)] : nullptr;
    const IterationWork work = stop                           ? stop->work
                               : status == kResidentConverged ? method.converged
                               : status == kResidentNotFinite ? method.not_finite
                                                              : method.running;
    k.count(work.applications, work.blas_flops - (c == 0 ? method.first_skips : 0.0));
    if (stop && stop->breakdown) {
      if (stop->counted) {
        r2 = r2_c;
        k.iterate(r2);
      }
      if (stop->at_next && k.at_limit()) return Stop::Limit;
      k.breakdown(stop->breakdown);
      return Stop::Breakdown;
    }
    r2 = r2_c;
    k.iterate(r2);  // throws on NaN / Inf
    if (stop || status == kResidentConverged) return Stop::Estimate;
    watch.add(r2);
    near = near || watch.near(k.threshold());
  }
}

}  // namespace lqcd::solver_detail
