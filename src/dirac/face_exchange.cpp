#include "dirac/face_exchange.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include "comm/device_messages.hpp"

#include "core/copy_stream.hpp"
#include "core/timer.hpp"

namespace lqcd {

namespace {

// Grow-only message buffers (device allocations and page-locking are slow), per location.
struct FaceBuffers {
  Buffer<std::byte> send, receive;     // where the field lives
  PinnedBuffer host_send, host_receive;  // staging of device messages for MPI
  std::unique_ptr<CopyStream> copies;    // device only, created at first use
};

FaceBuffers& buffers(Location loc) {
  static FaceBuffers host, device;
  return loc == Location::Device ? device : host;
}

std::byte* reserve(Buffer<std::byte>& b, std::size_t bytes, Location loc) {
  if (b.size() < bytes || b.location() != loc) b = Buffer<std::byte>(std::max(bytes, std::size_t(1)), loc);
  return b.data();
}

CopyStream& copy_stream() {
  FaceBuffers& b = buffers(Location::Device);
  if (!b.copies) b.copies = std::make_unique<CopyStream>();
  return *b.copies;
}

}  // namespace

FaceExchangeStats& face_exchange_stats() {
  static FaceExchangeStats stats;
  return stats;
}

template <typename Real, int LC>
FaceExchange<Real, LC>::FaceExchange(const GaugeView<Real, LC>& U, const SpinorField<Real>& in,
                                     const SpinorField<Real>& out, int dagger)
    : loc_(out.location()), geom_(out.geometry()) {
  const bool full = out.subset() == Subset::Full;
  std::int64_t total = 0;  // elements of all messages
  bool any_remote = false;
  for (int mu = 0; mu < 4; ++mu) {
    if (geom_.halo[mu] == 0) continue;
    Face& f = faces_[count_++];
    f.sites = FaceSites::of(U.idx, mu, full, full ? 0 : int(out.subset()));
    f.remote = geom_.grid[mu] > 1;
    f.offset = total;
    total += 2 * 6 * f.sites.count();
    if (f.remote) bytes_sent_ += double(2 * 6 * f.sites.count()) * sizeof(Message);
    any_remote = any_remote || f.remote;
  }
  const std::size_t bytes = std::size_t(total) * sizeof(Message);
  FaceBuffers& b = buffers(loc_);
  send_ = reinterpret_cast<Message*>(reserve(b.send, bytes, loc_));
  receive_ = reinterpret_cast<Message*>(reserve(b.receive, bytes, loc_));
  for (int i = 0; i < count_; ++i) {
    const Face& f = faces_[i];
    const FacePackKernel<Real, LC> pack{U, in.view(), f.sites, message(send_, f, 0), message(send_, f, 1), dagger};
    for_each(loc_, 2 * f.sites.count(), pack);
  }
  if (!any_remote) return;

  if (loc_ == Location::Device && comm::device_messages_available()) {
    // NCCL: the messages are queued on the copy stream after the packing; no MPI, no host buffers.
    nccl_ = true;
    CopyStream& copies = copy_stream();
    copies.after_default_stream();
    comm::exchange_on_device(transfers(send_, receive_), copies.native());
    return;
  }
  staged_ = loc_ == Location::Device && !comm::cuda_aware();
  if (staged_) {
    host_send_ = reinterpret_cast<Message*>(b.host_send.reserve(bytes));
    host_receive_ = reinterpret_cast<Message*>(b.host_receive.reserve(bytes));
  }
  if (loc_ == Location::Device) {
    // The copies (or, CUDA-aware, the host's wait before sending) start after the packing kernels;
    // the interior kernel queued next on the default stream runs meanwhile.
    CopyStream& copies = copy_stream();
    copies.after_default_stream();
    if (staged_)
      for (int i = 0; i < count_; ++i)
        if (faces_[i].remote)
          copies.copy(message(host_send_, faces_[i], 0), Location::Host, message(send_, faces_[i], 0), loc_,
                      2 * 6 * faces_[i].sites.count() * sizeof(Message));
  }
  if (loc_ == Location::Host) post_messages(send_, receive_);  // host fields: the messages are ready now
}

// Both messages of every remote face: side 0 travels forward, side 1 backward.
template <typename Real, int LC>
std::vector<comm::Transfer> FaceExchange<Real, LC>::transfers(const Message* from, Message* into) const {
  const Dims coords = geom_.grid_coords();
  std::vector<comm::Transfer> list;
  for (int i = 0; i < count_; ++i) {
    const Face& f = faces_[i];
    if (!f.remote) continue;
    const int mu = f.sites.mu;
    const std::size_t side_bytes = 6 * f.sites.count() * sizeof(Message);
    const int forward = comm::neighbour_rank(geom_.grid, coords, mu, +1);
    const int backward = comm::neighbour_rank(geom_.grid, coords, mu, -1);
    list.push_back({message(from, f, 0), forward, message(into, f, 0), backward, side_bytes, 2 * mu});
    list.push_back({message(from, f, 1), backward, message(into, f, 1), forward, side_bytes, 2 * mu + 1});
  }
  return list;
}

// Posts the receives, then the sends, of every remote face through MPI. For device fields this runs
// once the copy stream has caught up: then this exchange's messages are packed (and staged), and the
// previous exchange has finished reading the buffers the receives write into (its copies back ran on
// the copy stream; its face hops ran on the default stream before this exchange's packing).
template <typename Real, int LC>
void FaceExchange<Real, LC>::post_messages(const Message* from, Message* into) {
  const std::vector<comm::Transfer> list = transfers(from, into);
  for (const comm::Transfer& t : list) messages_.receive(t.receive, t.from, t.bytes, t.tag);
  for (const comm::Transfer& t : list) messages_.send(t.send, t.to, t.bytes, t.tag);
}

template <typename Real, int LC>
FaceExchange<Real, LC>::~FaceExchange() {
  if (waited_) return;
  try {
    wait();
  } catch (...) {  // an error is already on its way; the pending messages are waited for below
  }
}

template <typename Real, int LC>
void FaceExchange<Real, LC>::wait() {
  waited_ = true;
  if (bytes_sent_ == 0) return;
  const Stopwatch clock;
  if (nccl_) {
    copy_stream().before_default_stream();  // the face hops wait for the messages, not the host
  } else if (loc_ == Location::Device) {
    copy_stream().synchronize();  // packed (and, staged, copied to the host): the messages can go
    if (staged_) post_messages(host_send_, host_receive_);
    else post_messages(send_, receive_);  // CUDA-aware MPI
  }
  messages_.wait();  // nothing pending with NCCL
  if (staged_) {
    CopyStream& copies = copy_stream();
    for (int i = 0; i < count_; ++i)
      if (faces_[i].remote)
        copies.copy(message(receive_, faces_[i], 0), loc_, message(host_receive_, faces_[i], 0), Location::Host,
                    2 * 6 * faces_[i].sites.count() * sizeof(Message));
    copies.before_default_stream();  // the face hops wait for the messages, not the host
  }
  FaceExchangeStats& stats = face_exchange_stats();
  stats.wait_seconds += clock.seconds();
  stats.bytes_sent += bytes_sent_;
  ++stats.exchanges;
}

template <typename Real, int LC>
void FaceExchange<Real, LC>::add_face_hops(const GaugeView<Real, LC>& U, SpinorField<Real>& out,
                                           const FermionBoundary& boundary, double alpha, int dagger) {
  if (!waited_) wait();
  for (int i = 0; i < count_; ++i) {
    const Face& f = faces_[i];
    const Message* base = f.remote ? receive_ : send_;  // one process: its own opposite face
    const FaceHopKernel<Real, LC> hops{U,     out.view(), f.sites, message(base, f, 0), message(base, f, 1),
                                       boundary, alpha,  dagger};
    for_each(loc_, 2 * f.sites.count(), hops);
  }
}

template class FaceExchange<double, 9>;
template class FaceExchange<float, 9>;
template class FaceExchange<double, 6>;
template class FaceExchange<float, 6>;
template class FaceExchange<double, 4>;
template class FaceExchange<float, 4>;
template class FaceExchange<Half, 6>;
template class FaceExchange<Half, 4>;

}  // namespace lqcd
