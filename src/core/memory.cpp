#include "core/memory.hpp"

#include <cstdlib>
#include <cstring>

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

namespace detail {

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
  const cudaError_t e = cudaMalloc(&p, bytes);
  if (e != cudaSuccess)
    throw OutOfMemory(
        fmt::format("device allocation of {:.1f} MiB failed: {}", double(bytes) / (1 << 20), cudaGetErrorString(e)));
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
  cudaFree(p);
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
