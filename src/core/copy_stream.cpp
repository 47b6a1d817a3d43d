#include "core/copy_stream.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "core/error.hpp"

#if LQCD_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace lqcd {

namespace {
#if LQCD_HAVE_CUDA
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) fail("CUDA error in {}: {}", what, cudaGetErrorString(e));
}
cudaStream_t as_stream(void* s) { return static_cast<cudaStream_t>(s); }
cudaEvent_t as_event(void* e) { return static_cast<cudaEvent_t>(e); }
#endif
}  // namespace

PinnedBuffer::~PinnedBuffer() { release(); }

PinnedBuffer::PinnedBuffer(PinnedBuffer&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), bytes_(std::exchange(o.bytes_, 0)), pinned_(o.pinned_) {}

PinnedBuffer& PinnedBuffer::operator=(PinnedBuffer&& o) noexcept {
  if (this != &o) {
    release();
    data_ = std::exchange(o.data_, nullptr);
    bytes_ = std::exchange(o.bytes_, 0);
    pinned_ = o.pinned_;
  }
  return *this;
}

void PinnedBuffer::release() noexcept {
  if (!data_) return;
#if LQCD_HAVE_CUDA
  if (pinned_) cudaFreeHost(data_);
  else std::free(data_);
#else
  std::free(data_);
#endif
  data_ = nullptr;
  bytes_ = 0;
}

std::byte* PinnedBuffer::reserve(std::size_t bytes) {
  if (bytes <= bytes_ && data_) return data_;
  release();
  const std::size_t rounded = (std::max<std::size_t>(bytes, 1) + 255) / 256 * 256;
  void* p = nullptr;
  pinned_ = false;
#if LQCD_HAVE_CUDA
  if (device_available()) {
    check(cudaMallocHost(&p, rounded), "cudaMallocHost");
    pinned_ = true;
  }
#endif
  if (!p) p = std::aligned_alloc(256, rounded);
  if (!p) fail("host allocation of {:.1f} MiB for messages failed", double(rounded) / (1 << 20));
  data_ = static_cast<std::byte*>(p);
  bytes_ = rounded;
  return data_;
}

std::string copy_stream_priority() {
  const char* env = std::getenv("LQCD_COPY_STREAM_PRIORITY");
  const std::string setting = env ? env : "high";
  if (setting != "high" && setting != "normal")
    fail("LQCD_COPY_STREAM_PRIORITY: expected high or normal (got \"{}\")", setting);
  return setting;
}

CopyStream::CopyStream() {
#if LQCD_HAVE_CUDA
  if (!device_available()) return;
  // The highest priority: when the packing kernel ends, the messages' work on this stream (NCCL's
  // copy kernel, or the staging copies) and the interior kernel on the default stream become ready
  // together; at equal priority the interior's blocks fill every SM first and the messages wait for
  // them, so the overlap hides little. LQCD_COPY_STREAM_PRIORITY=normal keeps the default priority
  // (for comparison in lqcd bench).
  int least = 0, greatest = 0;
  check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking,
                                     copy_stream_priority() == "high" ? greatest : least),
        "cudaStreamCreateWithPriority");
  stream_ = s;
  cudaEvent_t a = nullptr, b = nullptr;
  check(cudaEventCreateWithFlags(&a, cudaEventDisableTiming), "cudaEventCreate");
  check(cudaEventCreateWithFlags(&b, cudaEventDisableTiming), "cudaEventCreate");
  done_ = a;
  ready_ = b;
#endif
}

CopyStream::~CopyStream() {
#if LQCD_HAVE_CUDA
  if (done_) cudaEventDestroy(as_event(done_));
  if (ready_) cudaEventDestroy(as_event(ready_));
  if (stream_) cudaStreamDestroy(as_stream(stream_));
#endif
}

void CopyStream::after_default_stream() {
#if LQCD_HAVE_CUDA
  if (!stream_) return;
  check(cudaEventRecord(as_event(ready_), cudaStreamLegacy), "cudaEventRecord");
  check(cudaStreamWaitEvent(as_stream(stream_), as_event(ready_), 0), "cudaStreamWaitEvent");
#endif
}

void CopyStream::copy(void* dst, Location dst_loc, const void* src, Location src_loc, std::size_t bytes) {
  if (bytes == 0) return;
#if LQCD_HAVE_CUDA
  if (stream_ && (dst_loc == Location::Device || src_loc == Location::Device)) {
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, as_stream(stream_)), "cudaMemcpyAsync");
    return;
  }
#endif
  detail::copy_bytes(dst, dst_loc, src, src_loc, bytes);
}

void CopyStream::synchronize() {
#if LQCD_HAVE_CUDA
  if (stream_) check(cudaStreamSynchronize(as_stream(stream_)), "cudaStreamSynchronize");
#endif
}

void CopyStream::before_default_stream() {
#if LQCD_HAVE_CUDA
  if (!stream_) return;
  check(cudaEventRecord(as_event(done_), as_stream(stream_)), "cudaEventRecord");
  check(cudaStreamWaitEvent(cudaStreamLegacy, as_event(done_), 0), "cudaStreamWaitEvent");
#endif
}

}  // namespace lqcd
