#include "core/memory.hpp"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/device_pool.hpp"
#include "core/environment_switch.hpp"
#include "core/error.hpp"

#if LQCD_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace lqcd {

const char* to_string(Location loc) { return loc == Location::Host ? "host" : "device"; }

#if LQCD_HAVE_CUDA
namespace {
void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) fail("CUDA error in {}: {}", what, cudaGetErrorString(e));
}
}  // namespace
#endif

bool device_available() {
#if LQCD_HAVE_CUDA
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
#else
  return false;
#endif
}

void select_device(int ordinal) {
#if LQCD_HAVE_CUDA
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) return;
  check_cuda(cudaSetDevice(ordinal % n), "cudaSetDevice");
#else
  (void)ordinal;
#endif
}

std::string device_description() {
#if LQCD_HAVE_CUDA
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0)
    return fmt::format("no usable CUDA device ({})", e != cudaSuccess ? cudaGetErrorString(e) : "none found");
  int dev = 0;
  cudaGetDevice(&dev);
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, dev);
  return fmt::format("{}, sm_{}{}, {:.1f} GiB, {} SMs{}", p.name, p.major, p.minor,
                     double(p.totalGlobalMem) / (1 << 30), p.multiProcessorCount,
                     n > 1 ? fmt::format(" (device {} of {})", dev, n) : "");
#else
  return "CPU-only build (no CUDA backend)";
#endif
}

std::int64_t device_l2_bytes() {
#if LQCD_HAVE_CUDA
  int dev = 0, bytes = 0;
  if (!device_available() || cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, dev) != cudaSuccess)
    return 0;
  return bytes;
#else
  return 0;
#endif
}

namespace {
// -1: not decided yet (device_pool decides at the first device allocation), 0: off, 1: on.
std::atomic<int> pool_state{-1};
}  // namespace

void disable_device_pool() {
  int expected = -1;  // the first decision stands: a block goes back the way it came
  pool_state.compare_exchange_strong(expected, 0);
}

namespace detail {

#if LQCD_HAVE_CUDA
// Device fields through CUDA's stream-ordered allocator (cudaMallocAsync on the default stream, the
// device's default pool keeping freed memory for the next allocation) unless LQCD_DEVICE_POOL=0 or
// disable_device_pool(): the HMC makes and drops work fields at every solve and force, and cudaFree
// waits for the whole device while cudaMalloc of hundreds of MB maps pages each time. Kernels run on
// the default stream, where cudaFreeAsync orders the release after them; the copy stream touches only
// buffers that live as long as their exchange (face_exchange.hpp), which orders the two streams.
bool device_pool() {
  const int state = pool_state.load();
  if (state >= 0) return state == 1;
  bool on = switch_from_environment("LQCD_DEVICE_POOL", true) && device_available();
  if (on) {
    int dev = 0, supported = 0;
    cudaMemPool_t pool;
    on = cudaGetDevice(&dev) == cudaSuccess &&
         cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, dev) == cudaSuccess && supported &&
         cudaDeviceGetDefaultMemPool(&pool, dev) == cudaSuccess;
    std::uint64_t keep = UINT64_MAX;  // keep what is freed (the default returns it at every synchronisation)
    on = on && cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) == cudaSuccess;
  }
  int expected = -1;
  pool_state.compare_exchange_strong(expected, on ? 1 : 0);
  return pool_state.load() == 1;
}

#endif

void* allocate_bytes(std::size_t bytes, Location loc) {
  if (bytes == 0) return nullptr;
  if (loc == Location::Host) {
    const std::size_t rounded = (bytes + 255) / 256 * 256;
    void* p = std::aligned_alloc(256, rounded);
    if (!p) throw OutOfMemory(fmt::format("host allocation of {:.1f} MiB failed", double(bytes) / (1 << 20)));
    return p;
  }
#if LQCD_HAVE_CUDA
  void* p = nullptr;
  cudaError_t e = cudaSuccess;
  if (device_pool()) {
    e = cudaMallocAsync(&p, bytes, 0);
    if (e == cudaErrorMemoryAllocation) {  // memory the pool keeps may be what is missing: hand it back, once
      cudaGetLastError();
      cudaMemPool_t pool;
      int dev = 0;
      if (cudaGetDevice(&dev) == cudaSuccess && cudaDeviceGetDefaultMemPool(&pool, dev) == cudaSuccess) {
        cudaDeviceSynchronize();
        cudaMemPoolTrimTo(pool, 0);
      }
      e = cudaMallocAsync(&p, bytes, 0);
    }
  } else {
    e = cudaMalloc(&p, bytes);
  }
  if (e != cudaSuccess) {
    cudaGetLastError();  // not sticky: clear it, so that the next call does not report it again
    throw OutOfMemory(
        fmt::format("device allocation of {:.1f} MiB failed: {}", double(bytes) / (1 << 20), cudaGetErrorString(e)));
  }
  return p;
#else
  fail("a device allocation was requested but this build has no CUDA backend (configure with -DLQCD_CUDA=ON)");
#endif
}

void free_bytes(void* p, Location loc) noexcept {
  if (loc == Location::Host) {
    std::free(p);
    return;
  }
#if LQCD_HAVE_CUDA
  if (device_pool()) cudaFreeAsync(p, 0);
  else cudaFree(p);
#endif
}

void copy_bytes(void* dst, Location dst_loc, const void* src, Location src_loc, std::size_t bytes) {
  if (bytes == 0) return;
  if (dst_loc == Location::Host && src_loc == Location::Host) {
    std::memcpy(dst, src, bytes);
    return;
  }
#if LQCD_HAVE_CUDA
  const cudaMemcpyKind kind = dst_loc == Location::Host
                                  ? cudaMemcpyDeviceToHost
                                  : (src_loc == Location::Host ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice);
  check_cuda(cudaMemcpy(dst, src, bytes, kind), "cudaMemcpy");
#else
  fail("a device copy was requested but this build has no CUDA backend");
#endif
}

void device_synchronize() {
#if LQCD_HAVE_CUDA
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
#endif
}

}  // namespace detail
}  // namespace lqcd
