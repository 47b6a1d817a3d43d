#pragma once
// The host (OpenMP) execution policy of the single-source kernels. A kernel is a functor with
//   void operator()(std::int64_t i) const                       (for_each)
//   void operator()(std::int64_t i, Result& accumulator) const  (reduce)
// written once in a *_kernels.hpp header and run by HostExec here or by DeviceExec (exec_cuda.cuh).

#include <cstdint>
#include <vector>

namespace lqcd {

struct HostExec {
  // Sites per reduction chunk: fixed, so that sums do not depend on the number of threads.
  static constexpr std::int64_t kChunk = 1024;
  // Loops of fewer items run on the calling thread alone (issue 47). Starting the team and meeting at
  // its barrier costs microseconds on cores of its own and a scheduler time slice (milliseconds) on
  // shared cores, where a woken thread waits for a core; the coarse levels of the multigrid (2^4 sites
  // x 24 components), a reduction of one chunk and the BLAS of small fields are such loops. Measured on
  // two cores shared with two busy processes: docs/performance.md, "The CPU default".
  static constexpr std::int64_t kSerialBelow = 1024;
  // Fixed shares (schedule static): a thread works on the same sites loop after loop, which keeps them in
  // its core's caches (handing pieces to whichever thread asks was measured 10% slower on idle cores).

  template <typename F>
  static void for_each(std::int64_t n, const F& f) {
#pragma omp parallel for schedule(static) if (n >= kSerialBelow)
    for (std::int64_t i = 0; i < n; ++i) f(i);
  }

  template <typename R, typename F>
  static R reduce(std::int64_t n, const F& f) {
    const std::int64_t chunks = (n + kChunk - 1) / kChunk;
    std::vector<R> partial(static_cast<std::size_t>(chunks));
#pragma omp parallel for schedule(static) if (chunks > 1)
    for (std::int64_t c = 0; c < chunks; ++c) {
      R acc{};
      const std::int64_t end = (c + 1) * kChunk < n ? (c + 1) * kChunk : n;
      for (std::int64_t i = c * kChunk; i < end; ++i) f(i, acc);
      partial[static_cast<std::size_t>(c)] = acc;
    }
    R total{};
    for (const R& p : partial) total += p;
    return total;
  }

  // n separate sums over i < count: element i adds to sum i % n (the right-hand sides of a block of
  // fields, fields/spinor_block_field.hpp). f(i, acc) adds element i's term to acc. Chunks of kChunk
  // whole groups of n, so the order is fixed as for reduce. out[0..n) receives the sums.
  template <typename F>
  static void reduce_each(std::int64_t count, int n, const F& f, double* out) {
    const std::int64_t width = kChunk * n;
    const std::int64_t chunks = (count + width - 1) / width;
    std::vector<double> partial(static_cast<std::size_t>(chunks * n), 0.0);
#pragma omp parallel for schedule(static) if (chunks > 1)
    for (std::int64_t c = 0; c < chunks; ++c) {
      double* acc = partial.data() + c * n;
      const std::int64_t end = (c + 1) * width < count ? (c + 1) * width : count;
      for (std::int64_t i = c * width; i < end; ++i) f(i, acc[i % n]);
    }
    for (int j = 0; j < n; ++j) out[j] = 0;
    for (std::int64_t c = 0; c < chunks; ++c)
      for (int j = 0; j < n; ++j) out[j] += partial[static_cast<std::size_t>(c * n + j)];
  }
};

// Declared here so that host code can name the device instantiations (extern template) without
// seeing CUDA; defined in exec_cuda.cuh, which only .cu files include.
struct DeviceExec;

}  // namespace lqcd
