#pragma once
// Asynchronous copies between host and device beside the kernels, for overlapping communication with
// computation (issue 6): kernels run on the default stream; a CopyStream is a second, non-blocking
// CUDA stream whose copies are ordered against the default stream by events only where asked. Copies
// that do not block the host need page-locked host memory: PinnedBuffer.
// Without CUDA both are plain host memory and synchronous copies.

#include <cstddef>
#include <string>

#include "core/memory.hpp"

namespace lqcd {

// Page-locked host memory (cudaMallocHost), grow-only, move-only.
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  ~PinnedBuffer();
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer(PinnedBuffer&& o) noexcept;
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept;

  // At least `bytes` of storage (the old contents are not kept when it grows).
  std::byte* reserve(std::size_t bytes);
  std::byte* data() const { return data_; }

 private:
  void release() noexcept;
  std::byte* data_ = nullptr;
  std::size_t bytes_ = 0;
  bool pinned_ = false;  // cudaMallocHost, or aligned host memory (no CUDA or no device)
};

// The CopyStream's priority against the default stream's kernels: "high" (the default) or "normal",
// from LQCD_COPY_STREAM_PRIORITY; anything else is an error naming the variable.
std::string copy_stream_priority();

class CopyStream {
 public:
  CopyStream();
  ~CopyStream();
  CopyStream(const CopyStream&) = delete;
  CopyStream& operator=(const CopyStream&) = delete;

  // Work queued on this stream from now on starts after everything queued so far on the default stream.
  void after_default_stream();
  // Queues a copy (asynchronous for the host where one side is the device and the host side is pinned).
  void copy(void* dst, Location dst_loc, const void* src, Location src_loc, std::size_t bytes);
  // The host waits until this stream's queued work is done.
  void synchronize();
  // Work queued on the default stream from now on starts after this stream's queued work.
  void before_default_stream();
  // The cudaStream_t (null without a device), for libraries that queue work on it (NCCL).
  void* native() const { return stream_; }

 private:
  void* stream_ = nullptr;  // cudaStream_t
  void* done_ = nullptr;    // cudaEvent_t: this stream's last point of interest
  void* ready_ = nullptr;   // cudaEvent_t: the default stream's
};

}  // namespace lqcd
