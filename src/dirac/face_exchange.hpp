#pragma once
// The hopping term on a lattice decomposed over processes, with its face messages overlapped with the
// interior (issue 6; face_kernels.hpp says what travels). One call of the hopping term:
//   FaceExchange faces(U, in, out, dagger);  // packs the faces, posts the receives, starts the copies
//   for_each(..., interior kernel);          // every hop that stays in the box, while messages travel
//   faces.wait();                            // messages complete (host blocks only here)
//   faces.add_face_hops(U, out, ...);        // the hops across the faces
// run_hopping_term() does exactly that. Messages between processes of device fields go, in this order
// of preference: GPU to GPU through NCCL on a second stream (comm/device_messages; the host does not
// wait at all), GPU to GPU through a CUDA-aware MPI, or through page-locked host buffers copied on the
// second stream and MPI. A direction with a halo but one process (tests) uses the packed buffers
// directly, no copy.
// Buffers are grow-only and shared by all calls of one precision: one exchange at a time.

#include <cstdint>
#include <vector>

#include "comm/communicator.hpp"
#include "comm/device_messages.hpp"
#include "core/dispatch.hpp"
#include "dirac/face_kernels.hpp"

namespace lqcd {

// Accumulated over all exchanges since the last reset (for lqcd bench): host seconds spent in
// wait() (communication not hidden by the interior), messages' bytes sent by this process, calls.
struct FaceExchangeStats {
  double wait_seconds = 0;
  double bytes_sent = 0;
  long exchanges = 0;
};
FaceExchangeStats& face_exchange_stats();

template <typename Real, int LinkComponents>
class FaceExchange {
 public:
  // Messages are in the arithmetic precision (float for half-precision fields).
  using Message = Complex<compute_t<Real>>;

  FaceExchange(const GaugeView<Real, LinkComponents>& U, const SpinorField<Real>& in, const SpinorField<Real>& out,
               int dagger);
  ~FaceExchange();
  FaceExchange(const FaceExchange&) = delete;
  FaceExchange& operator=(const FaceExchange&) = delete;

  void wait();
  void add_face_hops(const GaugeView<Real, LinkComponents>& U, SpinorField<Real>& out, const FermionBoundary& boundary,
                     double alpha, int dagger);

  // Bytes this process sends per exchange (both sides of every split direction).
  double bytes_sent() const { return bytes_sent_; }

 private:
  struct Face {
    FaceSites sites;
    bool remote = false;       // the neighbours are other processes
    std::int64_t offset = 0;   // of its two messages in the send and receive buffers (elements)
  };
  template <typename Pointer>  // to the start of the send or receive buffer
  static Pointer message(Pointer base, const Face& f, int side) {
    return base + f.offset + side * 6 * f.sites.count();
  }

  std::vector<comm::Transfer> transfers(const Message* from, Message* into) const;
  void post_messages(const Message* from, Message* into);

  Location loc_;
  Geometry geom_;
  Face faces_[4];
  int count_ = 0;
  Message* send_ = nullptr;     // where the field lives
  Message* receive_ = nullptr;
  Message* host_send_ = nullptr;  // staging (device fields, MPI not CUDA-aware)
  Message* host_receive_ = nullptr;
  bool staged_ = false;
  bool nccl_ = false;
  bool waited_ = false;
  double bytes_sent_ = 0;
  comm::PendingMessages messages_;
};

// The hopping kernel `k` (WilsonHoppingKernel or a kernel built on it) over out's sites, with the
// hops across split faces exchanged and overlapped; U, boundary, alpha and dagger must be k's.
template <typename Kernel, typename Real, int LinkComponents>
void run_hopping_term(const Kernel& k, const GaugeView<Real, LinkComponents>& U, const SpinorField<Real>& in,
                      SpinorField<Real>& out, const FermionBoundary& boundary, double alpha, int dagger) {
  const Location loc = out.location();
  if (!out.geometry().has_halo()) {
    for_each(loc, out.sites(), k);
    return;
  }
  FaceExchange<Real, LinkComponents> faces(U, in, out, dagger);
  for_each(loc, out.sites(), k);
  faces.wait();
  faces.add_face_hops(U, out, boundary, alpha, dagger);
}

}  // namespace lqcd
