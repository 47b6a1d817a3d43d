#pragma once
// Runs a site kernel where its data live. Algorithms call lqcd::for_each / lqcd::reduce with a
// functor from a *_kernels.hpp header; on the host the OpenMP policy runs it, on the device the CUDA
// policy does. The device versions are only declared here: each layer's .cu file instantiates the
// functors it uses (LQCD_INSTANTIATE_DEVICE_*), so a kernel that is not instantiated fails at link
// time, not at run time, and the GPU build compiles only the combinations in use.

#include <cstdint>
#include <vector>

#include "core/error.hpp"
#include "core/exec_host.hpp"
#include "core/memory.hpp"

namespace lqcd {

template <typename F>
void device_for_each(std::int64_t n, const F& f);
template <typename R, typename F>
R device_reduce(std::int64_t n, const F& f);
template <typename R, typename F, typename Finish>
void device_reduce_into(std::int64_t n, const F& f, const Finish& finish);
template <typename F>
void device_reduce_each(std::int64_t count, int n, const F& f, double* out);
template <typename F>
void device_reduce_each_into(std::int64_t count, int n, const F& f, double* sums);

template <typename F>
void for_each(Location loc, std::int64_t n, const F& f) {
  if (loc == Location::Device) {
#if LQCD_HAVE_CUDA
    device_for_each(n, f);
#else
    fail("a device kernel was requested but this build has no CUDA backend");
#endif
  } else {
    HostExec::for_each(n, f);
  }
}

template <typename R, typename F>
R reduce(Location loc, std::int64_t n, const F& f) {
  if (loc == Location::Device) {
#if LQCD_HAVE_CUDA
    return device_reduce<R>(n, f);
#else
    fail("a device reduction was requested but this build has no CUDA backend");
#endif
  }
  return HostExec::reduce<R>(n, f);
}

// As reduce, but the sum goes to finish(sum) (core/reduction.hpp), called once where the kernels run,
// and the host does not wait for it: device kernels queued after this one read what finish stored
// (on the host, finish runs before reduce_into returns). Deterministic, as reduce.
template <typename R, typename F, typename Finish>
void reduce_into(Location loc, std::int64_t n, const F& f, const Finish& finish) {
  if (loc == Location::Device) {
#if LQCD_HAVE_CUDA
    device_reduce_into<R>(n, f, finish);
    return;
#else
    fail("a device reduction was requested but this build has no CUDA backend");
#endif
  }
  finish(HostExec::reduce<R>(n, f));
}

// n sums at once (the right-hand sides of a block, fields/spinor_block_field.hpp): f(i, double& acc)
// adds element i's term (i < count) to sum i % n. Deterministic, as reduce.
template <typename F>
std::vector<double> reduce_each(Location loc, std::int64_t count, int n, const F& f) {
  std::vector<double> out(static_cast<std::size_t>(n), 0.0);
  if (loc == Location::Device) {
#if LQCD_HAVE_CUDA
    device_reduce_each(count, n, f, out.data());
#else
    fail("a device reduction was requested but this build has no CUDA backend");
#endif
  } else {
    HostExec::reduce_each(count, n, f, out.data());
  }
  return out;
}

// As reduce_each, but the n sums go to sums[0..n), memory of loc (a stream-resident solver's scalars),
// and the host does not wait: device kernels queued after this one read them (on the host the sums are
// there when reduce_each_into returns).
template <typename F>
void reduce_each_into(Location loc, std::int64_t count, int n, const F& f, double* sums) {
  if (loc == Location::Device) {
#if LQCD_HAVE_CUDA
    device_reduce_each_into(count, n, f, sums);
#else
    fail("a device reduction was requested but this build has no CUDA backend");
#endif
  } else {
    HostExec::reduce_each(count, n, f, sums);
  }
}

}  // namespace lqcd
