#pragma once
// The CUDA execution policy of the single-source kernels (see exec_host.hpp). Only .cu translation
// units include this header; they instantiate the kernels that host code declares extern.

#include <concepts>
#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <typeinfo>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

#include "core/copy_stream.hpp"
#include "core/error_type.hpp"
#include "core/launch_tuning.hpp"
#include "core/memory.hpp"
#include "core/reduction.hpp"

namespace lqcd {

namespace cuda_detail {

constexpr int kBlock = 256;
// Fixed grid for reductions (independent of the device) so that the summation order, and with it
// the rounding, is the same on every GPU.
constexpr int kReduceBlocks = 1024;
// reduce_each's grid: one element per thread, as for_each, up to this many blocks (beyond, a
// grid-stride loop). The grid is a function of the element count alone, so the order is still fixed.
// Why not a fixed grid with a grid-stride loop, as reduce: the fused multi-RHS hopping kernels run
// through reduce_each, and a grid-stride loop sends each resident block through several far-apart
// stretches of the lattice, so the sites that share a neighbour are no longer in flight together and
// L2 loses the neighbours (on the H100 the fused kernel took 1.55 ms against 0.83 ms for the plain
// hopping term on the same sites with 8192 blocks; docs/performance.md).
constexpr std::int64_t kReduceEachMaxBlocks = std::int64_t(1) << 20;

// reduce_each's grid cap for a functor: F::kReduceEachMaxBlocks where it sets one. Reductions with many
// sums over many small elements (the multi-RHS coarse GCR's Gram-Schmidt: 2 N nb sums) would otherwise
// write as many partial sums as elements; with the cap each thread takes a stretch of them in a grid-
// stride loop (still a fixed order: the grid depends on the count alone).
template <typename F>
constexpr std::int64_t reduce_each_max_blocks() {
  if constexpr (requires { F::kReduceEachMaxBlocks; }) return F::kReduceEachMaxBlocks;
  else return kReduceEachMaxBlocks;
}

// Blocks of kBlock threads that a kernel asks to fit on one SM at once (F::kMinBlocksPerSM, default 1):
// ptxas then caps the registers per thread (65536 / (kBlock x blocks)). Bandwidth-bound kernels whose
// register count would leave too few warps to hide memory latency set it (the hopping kernel).
template <typename F>
constexpr int min_blocks_per_sm() {
  if constexpr (requires { F::kMinBlocksPerSM; }) return F::kMinBlocksPerSM;
  else return 1;
}

// Programmatic dependent launch (sm_90; CUDA programming guide, "Programmatic Dependent Launch"): a
// kernel launched with cudaLaunchAttributeProgrammaticStreamSerialization may be scheduled before the
// kernel ahead of it in the stream has finished, once every block of that one has signalled
// (launch_dependents); it then waits (wait) until that kernel has completed and its writes are
// visible. Every kernel launched through launch() below (site kernels and both passes of reductions)
// does both at its start, the wait first, so that the next kernel's launch and block scheduling
// overlap this one's work, a kernel never reads what the previous one has not yet written, and at
// most two kernels hold SM slots at once. (Signalling first let every queued kernel launch at once,
// each waiting on the one before with its blocks resident: at 16^4 the hopping term took 10.1 us per
// call instead of 8.5; docs/performance.md, tenth session.) Without the attribute both are no-ops.
__device__ __forceinline__ void programmatic_launch_prologue() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

template <typename F>
__global__ void __launch_bounds__(kBlock, min_blocks_per_sm<F>()) for_each_kernel(std::int64_t n, F f) {
  programmatic_launch_prologue();
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}

template <typename R, typename F>
__global__ void __launch_bounds__(kBlock) reduce_kernel(std::int64_t n, F f, R* partial) {
  programmatic_launch_prologue();
  __shared__ alignas(16) unsigned char storage[kBlock * sizeof(R)];
  R* sh = reinterpret_cast<R*>(storage);
  R acc{};
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    f(i, acc);
  sh[threadIdx.x] = acc;
  __syncthreads();
  for (int s = kBlock / 2; s > 0; s >>= 1) {
    if (int(threadIdx.x) < s) sh[threadIdx.x] += sh[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sh[0];
}

// Second pass of a reduction: finish(sum of partial[0..n)), the sum in an order fixed by n alone; finish
// runs once, in thread 0 (StoreSum, or the finisher of reduce_into).
template <typename R, typename Finish>
__global__ void __launch_bounds__(kBlock) reduce_partials_kernel(int n, const R* partial, Finish finish) {
  programmatic_launch_prologue();
  __shared__ alignas(16) unsigned char storage[kBlock * sizeof(R)];
  R* sh = reinterpret_cast<R*>(storage);
  R acc{};
  for (int i = int(threadIdx.x); i < n; i += kBlock) acc += partial[i];
  sh[threadIdx.x] = acc;
  __syncthreads();
  for (int s = kBlock / 2; s > 0; s >>= 1) {
    if (int(threadIdx.x) < s) sh[threadIdx.x] += sh[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) finish(sh[0]);
}

// reduce_each (n sums, element i to sum i % n): blocks of n x (kBlock / n) threads, so that with the
// grid-stride loop every thread's elements belong to one sum, that of threadIdx.x % n. Each block
// writes its n partial sums to partial[block * n + j], adding its threads of rhs j in a fixed order.
template <typename F>
__global__ void __launch_bounds__(kBlock, min_blocks_per_sm<F>()) reduce_each_kernel(std::int64_t count, int n, F f, double* partial) {
  programmatic_launch_prologue();
  __shared__ double sh[kBlock];
  double acc = 0;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x)
    f(i, acc);
  sh[threadIdx.x] = acc;
  __syncthreads();
  if (int(threadIdx.x) < n) {
    double s = 0;
    for (int t = int(threadIdx.x); t < int(blockDim.x); t += n) s += sh[t];
    partial[std::int64_t(blockIdx.x) * n + threadIdx.x] = s;
  }
}

// Second pass of reduce_each: result[j] = sum over b of partial[b * n + j], in an order fixed by
// (blocks, n) alone. Block j sums rhs j: thread t over b = t, t + kBlock, ..., then a tree.
template <int Unused = 0>
__global__ void __launch_bounds__(kBlock) reduce_each_partials_kernel(int blocks, int n, const double* partial,
                                                                      double* result) {
  programmatic_launch_prologue();
  __shared__ double sh[kBlock];
  const int j = int(blockIdx.x);
  double acc = 0;
  for (int b = int(threadIdx.x); b < blocks; b += kBlock) acc += partial[std::int64_t(b) * n + j];
  sh[threadIdx.x] = acc;
  __syncthreads();
  for (int half = kBlock / 2; half > 0; half /= 2) {
    if (int(threadIdx.x) < half) sh[threadIdx.x] += sh[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) result[j] = sh[0];
}

// Device memory for the partial sums of reductions, kept for the life of the process (one buffer per
// device, grown on demand). Allocating it per reduction cost a cudaMalloc/cudaFree pair, and
// cudaFree synchronises the whole device: tens of microseconds, three times per CG iteration.
inline void* reduce_scratch(std::size_t bytes) {
  static std::mutex mutex;
  static std::map<int, Buffer<unsigned char>> buffers;
  int device = 0;
  cudaGetDevice(&device);
  const std::lock_guard<std::mutex> lock(mutex);
  Buffer<unsigned char>& b = buffers[device];
  if (b.size() < bytes) b = Buffer<unsigned char>(bytes, Location::Device);
  return b.data();
}

inline void check_launch(const char* what) {
  const cudaError_t e = cudaGetLastError();
  // No fmt format strings here: nvcc cannot evaluate fmt's consteval format checks.
  if (e != cudaSuccess) throw Error(std::string("CUDA kernel launch failed (") + what + "): " + cudaGetErrorString(e));
}

// Page-locked host memory for the results of reductions, which their last pass writes directly (the
// device reaches page-locked memory through unified addressing): the host then waits for the stream
// and reads, instead of a cudaMemcpy from device memory into pageable memory after the kernels. One
// buffer per device, grown on demand, for the life of the process.
inline void* reduce_result(std::size_t bytes) {
  static std::mutex mutex;
  static std::map<int, PinnedBuffer> buffers;
  int device = 0;
  cudaGetDevice(&device);
  const std::lock_guard<std::mutex> lock(mutex);
  return buffers[device].reserve(bytes);
}

// The host waits for the default stream (where the reductions run).
inline void wait_for_default_stream(const char* what) {
  const cudaError_t e = cudaStreamSynchronize(0);
  if (e != cudaSuccess) throw Error(std::string("CUDA error after ") + what + ": " + cudaGetErrorString(e));
}

// kernel<<<grid, block>>>(args...) on the default stream, as a programmatic dependent launch where
// programmatic_launch_enabled() (every kernel launched here starts with programmatic_launch_prologue).
template <typename... Params, typename... Args>
void launch(void (*kernel)(Params...), std::int64_t grid, int block, const char* what, Args&&... args) {
  if (programmatic_launch_enabled()) {
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(unsigned(grid));
    config.blockDim = dim3(unsigned(block));
    cudaLaunchAttribute attribute[1];
    attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute[0].val.programmaticStreamSerializationAllowed = 1;
    config.attrs = attribute;
    config.numAttrs = 1;
    const cudaError_t e = cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
    if (e != cudaSuccess) throw Error(std::string("CUDA kernel launch failed (") + what + "): " + cudaGetErrorString(e));
  } else {
    kernel<<<unsigned(grid), unsigned(block)>>>(std::forward<Args>(args)...);
  }
  check_launch(what);
}

// A site kernel that may be tuned says so at run time: f.tunable() is true when running it again over
// the same data gives the same result (it writes its output sites from inputs it does not write; an
// in-place update is not tunable). The tuner runs such a kernel several times with each block size.
template <typename F>
concept TunableLaunch = requires(const F& f) {
  { f.tunable() } -> std::convertible_to<bool>;
};

// The name of the current device (the tuning cache's first key).
inline std::string current_device_name() {
  static std::mutex mutex;
  static std::map<int, std::string> names;
  int device = 0;
  cudaGetDevice(&device);
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = names.find(device);
  if (it == names.end()) {
    cudaDeviceProp prop{};
    const cudaError_t e = cudaGetDeviceProperties(&prop, device);
    if (e != cudaSuccess)
      throw Error("cudaGetDeviceProperties of device " + std::to_string(device) + ": " + cudaGetErrorString(e));
    it = names.emplace(device, prop.name).first;
  }
  return it->second;
}

// Times f over n sites in blocks of `block` threads: one warm-up launch, then the mean of five, with
// CUDA events (microseconds per launch).
template <typename F>
double time_launch(std::int64_t n, const F& f, int block) {
  const std::string what = "launch tuning of " + readable_type_name(typeid(F).name()) + " with " +
                           std::to_string(block) + " threads per block";
  const auto check = [&](cudaError_t e) {
    if (e != cudaSuccess) throw Error(what + ": " + cudaGetErrorString(e));
  };
  const unsigned blocks = unsigned((n + block - 1) / block);
  for_each_kernel<<<blocks, unsigned(block)>>>(n, f);
  check(cudaGetLastError());
  cudaEvent_t start = nullptr, stop = nullptr;
  check(cudaEventCreate(&start));
  const cudaError_t created = cudaEventCreate(&stop);
  float ms = 0;
  cudaError_t e = created;
  if (e == cudaSuccess) e = cudaEventRecord(start);
  constexpr int kLaunches = 5;
  for (int r = 0; r < kLaunches && e == cudaSuccess; ++r) {
    for_each_kernel<<<blocks, unsigned(block)>>>(n, f);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = cudaEventRecord(stop);
  if (e == cudaSuccess) e = cudaEventSynchronize(stop);
  if (e == cudaSuccess) e = cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  if (created == cudaSuccess) cudaEventDestroy(stop);
  check(e);
  return 1e3 * double(ms) / kLaunches;
}

// Threads per block for f over n sites: the cached choice, or the fastest of the candidates (the
// multiples of 32 up to kBlock, which __launch_bounds__ allows), measured now and cached. Fewer threads
// per block can mean more resident warps: a kernel with 148 registers per thread fits one block of
// 256 threads on an SM (8 warps) but three of 128 (12 warps).
template <typename F>
int find_or_tune_block(std::int64_t n, const F& f) {
  cudaFuncAttributes attributes{};
  if (const cudaError_t e = cudaFuncGetAttributes(&attributes, for_each_kernel<F>); e != cudaSuccess)
    throw Error("cudaFuncGetAttributes of " + readable_type_name(typeid(F).name()) + ": " + cudaGetErrorString(e));
  const LaunchKey key{current_device_name(), readable_type_name(typeid(F).name()), attributes.numRegs, n};
  const std::shared_ptr<LaunchTuningCache> cache = launch_tuning();
  if (const auto choice = cache->find(key)) return choice->block;
  // Three rounds over all candidates, each candidate's best round counting, so that one slow
  // measurement (the clock follows the power draw within milliseconds) does not decide.
  constexpr int kRounds = 3;
  std::vector<double> best_us(kBlock / 32, 1e300);
  for (int round = 0; round < kRounds; ++round)
    for (int c = 0; c < kBlock / 32; ++c)
      best_us[std::size_t(c)] = std::min(best_us[std::size_t(c)], time_launch(n, f, 32 * (c + 1)));
  LaunchChoice best{kBlock, best_us.back()};
  for (int c = 0; c < kBlock / 32; ++c)
    if (best_us[std::size_t(c)] < best.microseconds) best = {32 * (c + 1), best_us[std::size_t(c)]};
  cache->record(key, best);
  return best.block;
}

// Threads per block for f over n sites (find_or_tune_block on the first launch of each lattice).
template <typename F>
int tuned_block(std::int64_t n, const F& f) {
  // This kernel's choices so far, by (generation, device, sites): every launch after the first on a
  // lattice costs one lookup here, not the cache's (kernel name, registers, file).
  static std::mutex memo_mutex;
  static std::map<std::tuple<std::uint64_t, int, std::int64_t>, int> memo;
  int device = 0;
  cudaGetDevice(&device);
  const auto memo_key = std::make_tuple(launch_tuning_generation(), device, n);
  {
    const std::lock_guard<std::mutex> lock(memo_mutex);
    if (const auto it = memo.find(memo_key); it != memo.end()) return it->second;
  }
  const int block = find_or_tune_block(n, f);
  const std::lock_guard<std::mutex> lock(memo_mutex);
  memo[memo_key] = block;
  return block;
}

}  // namespace cuda_detail

struct DeviceExec {
  // Blocks of 256 threads, or for a tunable kernel (cuda_detail::TunableLaunch) the tuned block size
  // (core/launch_tuning.hpp).
  template <typename F>
  static void for_each(std::int64_t n, const F& f) {
    if (n <= 0) return;
    int block = cuda_detail::kBlock;
    if constexpr (cuda_detail::TunableLaunch<F>) {
      if (f.tunable() && launch_tuning_enabled()) block = cuda_detail::tuned_block(n, f);
    }
    const std::int64_t blocks = (n + block - 1) / block;
    cuda_detail::launch(cuda_detail::for_each_kernel<F>, blocks, block, "for_each", n, f);
  }

  template <typename R, typename F>
  static R reduce(std::int64_t n, const F& f) {
    // The second pass writes the result to the host, which then waits for the stream.
    R* result = static_cast<R*>(cuda_detail::reduce_result(sizeof(R)));
    reduce_into<R>(n, f, StoreSum<R>{result});
    cuda_detail::wait_for_default_stream("reduce");
    return *result;
  }

  // Both passes of a reduction in the default stream, in a fixed order, the sum handed to finish in the
  // second; the host does not wait.
  template <typename R, typename F, typename Finish>
  static void reduce_into(std::int64_t n, const F& f, const Finish& finish) {
    std::int64_t blocks = (n + cuda_detail::kBlock - 1) / cuda_detail::kBlock;
    if (blocks > cuda_detail::kReduceBlocks) blocks = cuda_detail::kReduceBlocks;
    if (blocks < 1) blocks = 1;
    R* partial = static_cast<R*>(cuda_detail::reduce_scratch(std::size_t(blocks) * sizeof(R)));
    cuda_detail::launch(cuda_detail::reduce_kernel<R, F>, blocks, cuda_detail::kBlock, "reduce", n, f, partial);
    cuda_detail::launch(cuda_detail::reduce_partials_kernel<R, Finish>, 1, cuda_detail::kBlock,
                        "reduce (partial sums)", int(blocks), static_cast<const R*>(partial), finish);
  }

  // As HostExec::reduce_each; n <= kBlock. The sums pass through page-locked memory, for which the
  // host waits.
  template <typename F>
  static void reduce_each(std::int64_t count, int n, const F& f, double* out) {
    double* result = static_cast<double*>(cuda_detail::reduce_result(std::size_t(n) * sizeof(double)));
    reduce_each_into(count, n, f, result);
    cuda_detail::wait_for_default_stream("reduce_each");
    std::copy(result, result + n, out);
  }

  // Both passes of reduce_each in the default stream, the second writing the n sums to `sums` (memory
  // the device reaches); the host does not wait.
  template <typename F>
  static void reduce_each_into(std::int64_t count, int n, const F& f, double* sums) {
    if (n < 1 || n > cuda_detail::kBlock) throw Error("internal: reduce_each: 1 to 256 sums");
    const int width = n * (cuda_detail::kBlock / n);
    std::int64_t blocks = (count + width - 1) / width;
    if (blocks > cuda_detail::reduce_each_max_blocks<F>()) blocks = cuda_detail::reduce_each_max_blocks<F>();
    if (blocks < 1) blocks = 1;
    double* partial = static_cast<double*>(cuda_detail::reduce_scratch(std::size_t(blocks) * n * sizeof(double)));
    cuda_detail::launch(cuda_detail::reduce_each_kernel<F>, blocks, width, "reduce_each", count, n, f, partial);
    cuda_detail::launch(cuda_detail::reduce_each_partials_kernel<0>, n, cuda_detail::kBlock,
                        "reduce_each (partial sums)", int(blocks), n, static_cast<const double*>(partial), sums);
  }
};

}  // namespace lqcd

namespace lqcd {

template <typename F>
void device_for_each(std::int64_t n, const F& f) {
  DeviceExec::for_each(n, f);
}
template <typename R, typename F>
R device_reduce(std::int64_t n, const F& f) {
  return DeviceExec::reduce<R>(n, f);
}
template <typename R, typename F, typename Finish>
void device_reduce_into(std::int64_t n, const F& f, const Finish& finish) {
  DeviceExec::reduce_into<R>(n, f, finish);
}
template <typename F>
void device_reduce_each(std::int64_t count, int n, const F& f, double* out) {
  DeviceExec::reduce_each(count, n, f, out);
}
template <typename F>
void device_reduce_each_into(std::int64_t count, int n, const F& f, double* sums) {
  DeviceExec::reduce_each_into(count, n, f, sums);
}

}  // namespace lqcd

// Explicit instantiations for the functors a layer runs on the device.
#define LQCD_INSTANTIATE_DEVICE_FOR_EACH(...) \
  template void lqcd::device_for_each<__VA_ARGS__>(std::int64_t, const __VA_ARGS__&);
#define LQCD_INSTANTIATE_DEVICE_REDUCE(R, ...) \
  template R lqcd::device_reduce<R, __VA_ARGS__>(std::int64_t, const __VA_ARGS__&);
// R and Finish must be written without commas (Sums<1>, a finisher's name); the kernel comes last.
#define LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(R, Finish, ...) \
  template void lqcd::device_reduce_into<R, __VA_ARGS__, Finish>(std::int64_t, const __VA_ARGS__&, const Finish&);
#define LQCD_INSTANTIATE_DEVICE_REDUCE_EACH(...)                                                  \
  template void lqcd::device_reduce_each<__VA_ARGS__>(std::int64_t, int, const __VA_ARGS__&, double*); \
  template void lqcd::device_reduce_each_into<__VA_ARGS__>(std::int64_t, int, const __VA_ARGS__&, double*);
