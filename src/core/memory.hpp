#pragma once
// Memory that knows where it lives. Buffer<T> owns an allocation on the host or on the device (RAII,
// move-only); moving data between the two is always an explicit copy.

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace lqcd {

enum class Location { Host, Device };
const char* to_string(Location loc);

// True when this build has the CUDA backend and a device can be used.
bool device_available();
// Makes device ordinal % (number of devices) this process's device (one GPU per MPI rank: the
// node-local rank); no-op without CUDA or devices.
void select_device(int ordinal);
// One line describing the device ("NVIDIA H100 80GB HBM3, sm_90, 79.1 GiB") or why there is none.
std::string device_description();
// Bytes of the current device's L2 cache (0 without a device): benchmarks rotate their inputs over
// more than this so that a call does not find the previous call's data in L2.
std::int64_t device_l2_bytes();

namespace detail {
void* allocate_bytes(std::size_t bytes, Location loc);
void free_bytes(void* p, Location loc) noexcept;
void copy_bytes(void* dst, Location dst_loc, const void* src, Location src_loc, std::size_t bytes);
void device_synchronize();
}  // namespace detail

// Host allocations are 256-byte aligned, like cudaMalloc's, so a layout is the same on both.
template <typename T>
class Buffer {
 public:
  Buffer() = default;
  Buffer(std::size_t count, Location loc)
      : ptr_(static_cast<T*>(detail::allocate_bytes(count * sizeof(T), loc))), count_(count), loc_(loc) {}
  ~Buffer() { reset(); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)), loc_(o.loc_) {}
  Buffer& operator=(Buffer&& o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
      loc_ = o.loc_;
    }
    return *this;
  }

  T* data() const { return ptr_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }
  Location location() const { return loc_; }

  // Element-wise copy of another buffer of the same size, wherever either lives.
  void copy_from(const Buffer& src) {
    detail::copy_bytes(ptr_, loc_, src.ptr_, src.loc_, bytes() < src.bytes() ? bytes() : src.bytes());
  }

 private:
  void reset() {
    if (ptr_) detail::free_bytes(ptr_, loc_);
    ptr_ = nullptr;
    count_ = 0;
  }
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
  Location loc_ = Location::Host;
};

}  // namespace lqcd
