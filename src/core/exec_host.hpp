#pragma once
// The host (OpenMP) execution policy of the single-source kernels. A kernel is a functor with
//   void operator()(std::int64_t i) const                       (for_each)
//   void operator()(std::int64_t i, Result& accumulator) const  (reduce)
// written once in a *_kernels.hpp header and run by HostExec here or by DeviceExec (exec_cuda.cuh).

#include <cstdint>
#include <vector>

namespace lqcd {

// True where OMP_WAIT_POLICY is "passive" (read once): the cores are shared (app/openmp_defaults.cpp
// chooses it there) or the user asked for sleeping waits. See HostExec.
bool cores_are_shared();

struct HostExec {
  // Sites per reduction chunk: fixed, so that sums do not depend on the number of threads.
  static constexpr std::int64_t kChunk = 1024;
  // On cores of its own each thread takes a fixed share of every loop (schedule static): the same sites
  // loop after loop, which keeps them in its core's caches. Where the cores are shared (cores_are_shared():
  // issue 47, docs/performance.md "The CPU default"), a woken thread may wait a scheduler time slice
  // (milliseconds) for a core, and with fixed shares the whole loop waits for it. There, loops of fewer
  // than kSerialBelow items (the multigrid's coarse levels, 2^4 sites x 24 components; a reduction of one
  // chunk; the BLAS of small fields) run on the calling thread alone, and larger ones go out in pieces of
  // kGrain items (or one chunk) to the threads that run. Either way the results are the same: for_each
  // writes each item once, and the reductions sum fixed chunks in a fixed order. (Both measures also on
  // idle cores cost 4-10% in the 8^4 multigrid solve: not there.)
  static constexpr std::int64_t kSerialBelow = 1024;
  static constexpr std::int64_t kGrain = 256;

  template <typename F>
  static void for_each(std::int64_t n, const F& f) {
    if (!cores_are_shared()) {
#pragma omp parallel for schedule(static)
      for (std::int64_t i = 0; i < n; ++i) f(i);
    } else if (n < kSerialBelow) {
      for (std::int64_t i = 0; i < n; ++i) f(i);
    } else {
#pragma omp parallel for schedule(dynamic, kGrain)
      for (std::int64_t i = 0; i < n; ++i) f(i);
    }
  }

  template <typename R, typename F>
  static R reduce(std::int64_t n, const F& f) {
    const std::int64_t chunks = (n + kChunk - 1) / kChunk;
    std::vector<R> partial(static_cast<std::size_t>(chunks));
    const auto chunk = [&](std::int64_t c) {
      R acc{};
      const std::int64_t end = (c + 1) * kChunk < n ? (c + 1) * kChunk : n;
      for (std::int64_t i = c * kChunk; i < end; ++i) f(i, acc);
      partial[static_cast<std::size_t>(c)] = acc;
    };
    over_chunks(chunks, chunk);
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
    over_chunks(chunks, [&](std::int64_t c) {
      double* acc = partial.data() + c * n;
      const std::int64_t end = (c + 1) * width < count ? (c + 1) * width : count;
      for (std::int64_t i = c * width; i < end; ++i) f(i, acc[i % n]);
    });
    for (int j = 0; j < n; ++j) out[j] = 0;
    for (std::int64_t c = 0; c < chunks; ++c)
      for (int j = 0; j < n; ++j) out[j] += partial[static_cast<std::size_t>(c * n + j)];
  }

  // The chunks of a reduction, c = 0..chunks-1: in parallel where there are several.
  template <typename G>
  static void over_chunks(std::int64_t chunks, const G& g) {
    if (!cores_are_shared()) {
#pragma omp parallel for schedule(static)
      for (std::int64_t c = 0; c < chunks; ++c) g(c);
    } else if (chunks < 2) {
      for (std::int64_t c = 0; c < chunks; ++c) g(c);
    } else {
#pragma omp parallel for schedule(dynamic, 1)
      for (std::int64_t c = 0; c < chunks; ++c) g(c);
    }
  }
};

// Declared here so that host code can name the device instantiations (extern template) without
// seeing CUDA; defined in exec_cuda.cuh, which only .cu files include.
struct DeviceExec;

}  // namespace lqcd
