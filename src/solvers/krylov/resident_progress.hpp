#pragma once
// What a stream-resident Krylov iteration (resident_cg.cpp, resident_bicgstab.cpp) tells the host:
// its iterated ||r||^2 and whether it stopped the cycle, written by the device to page-locked host
// memory and published with a counter (core/device_counter.hpp). The host follows the iterations one
// behind the stream (resident_loop.hpp).

#include <cstdint>

#include "core/device_counter.hpp"
#include "core/macros.hpp"

namespace lqcd::solver_detail {

// The status of an iteration. kResidentMethodStop + i: the method's own stop of kind i, a breakdown
// or a convergence before the iteration's end (the host's list of ResidentStop, resident_loop.hpp,
// says which).
enum ResidentStatus : int {
  kResidentRunning = 0,
  kResidentConverged = 1,
  kResidentNotFinite = 2,
  kResidentMethodStop = 3,
};

// In page-locked host memory, written by the device for the host.
inline constexpr int kResidentProgressRing = 4;  // more than the iterations the host queues ahead (2)
struct ResidentProgress {
  double r2[kResidentProgressRing];  // ||r||^2 after iteration k in r2[k % kResidentProgressRing]
  int status[kResidentProgressRing];  // ResidentStatus of iteration k, likewise
  int completed;                      // iterations whose r2 and status are written (publish_count)

  // Reports iteration k (one thread, its last write of the iteration).
  LQCD_HOST_DEVICE void report(int k, double r2_k, int status_k) {
    r2[k % kResidentProgressRing] = r2_k;
    status[k % kResidentProgressRing] = status_k;
    publish_count(&completed, k + 1);
  }
};

// A reduction over a decomposed lattice (global_reduce_into, resident_loop.hpp): the local sum is
// stored (StoreLocalSum), summed over the ranks in the stream, and then handed to the finisher by one
// thread (FinishGlobalSum), so that every rank's finisher sees the same global sum.
template <typename R>
struct StoreLocalSum {
  R* out;
  LQCD_HOST_DEVICE void operator()(const R& sum) const { *out = sum; }
};
template <typename R, typename Finish>
struct FinishGlobalSum {
  const R* sum;
  Finish finish;
  LQCD_HOST_DEVICE void operator()(std::int64_t) const { finish(*sum); }
};

}  // namespace lqcd::solver_detail
