#include "solvers/multigrid/coarse_halo.hpp"

#include <vector>

#include "comm/communicator.hpp"
#include "comm/device_messages.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"

namespace lqcd {

namespace {
constexpr int kCoarseFaceTag = 64;
}  // namespace

CoarseFaceLayout CoarseFaceLayout::of(const CoarseLattice& lattice, const Dims& grid) {
  CoarseFaceLayout L{};
  L.lattice = lattice;
  for (int mu = 0; mu < 4; ++mu) {
    L.split[mu] = grid[std::size_t(mu)] > 1;
    L.face_sites[mu] = lattice.sites / lattice.n[mu];
    for (int side = 0; side < 2; ++side) {
      L.offset[mu][side] = L.sites;
      if (L.split[mu]) L.sites += L.face_sites[mu];
    }
  }
  return L;
}

CoarseHalo::CoarseHalo(const Geometry& coarse)
    : coarse_(coarse), layout_(CoarseFaceLayout::of(CoarseLattice::of(coarse.local), coarse.grid)) {}

template <typename Real>
void CoarseHalo::exchange(const CoarseField<Real>& in, Buffer<Complex<Real>>& send, Buffer<Complex<Real>>& ghost) const {
  if (in.sites() != layout_.lattice.sites) fail("internal: a coarse field of another lattice in a halo exchange");
  exchange(in.view().data, in.dof(), in.location(), send, ghost);
}

template <typename Real>
void CoarseHalo::exchange(const Complex<Real>* in, int dof, Location loc, Buffer<Complex<Real>>& send,
                          Buffer<Complex<Real>>& ghost) const {
  const std::size_t count = std::size_t(layout_.sites) * std::size_t(dof);
  if (count == 0) return;
  if (send.size() < count || send.location() != loc) send = Buffer<Complex<Real>>(count, loc);
  if (ghost.size() < count || ghost.location() != loc) ghost = Buffer<Complex<Real>>(count, loc);
  for_each(loc, std::int64_t(count), CoarseFacePackKernel<Real>{layout_, in, send.data(), dof});
  // Each split direction's two messages: our first sites to the backward neighbour, whose forward ghost
  // they are, and our last ones forward; a face's place is the same in the send and ghost buffers. (Tags
  // apart from the fine level's face messages.)
  const Dims coords = coarse_.grid_coords();
  const auto transfers = [&](const Complex<Real>* from, Complex<Real>* into) {
    std::vector<comm::Transfer> list;
    for (int mu = 0; mu < 4; ++mu) {
      if (!layout_.split[mu]) continue;
      const int forward = comm::neighbour_rank(coarse_.grid, coords, mu, +1);
      const int backward = comm::neighbour_rank(coarse_.grid, coords, mu, -1);
      const std::size_t bytes = std::size_t(layout_.face_sites[mu]) * std::size_t(dof) * sizeof(Complex<Real>);
      const std::size_t first = std::size_t(layout_.offset[mu][0]) * std::size_t(dof);
      const std::size_t last = std::size_t(layout_.offset[mu][1]) * std::size_t(dof);
      list.push_back({from + first, backward, into + first, forward, bytes, kCoarseFaceTag + 2 * mu});
      list.push_back({from + last, forward, into + last, backward, bytes, kCoarseFaceTag + 2 * mu + 1});
    }
    return list;
  };
  if (loc == Location::Device && comm::device_messages_available()) {
    // GPU to GPU through NCCL (peer copies over NVLink in a node), queued after the packing on the default
    // stream, as the fine level's faces go (dirac/face_exchange.cpp).
    comm::exchange_on_device(transfers(send.data(), ghost.data()), nullptr);
    return;
  }
  // Through host buffers: a coarse face is small (an 8^4 coarse box of 48 components sends 24 kB a face in
  // single precision), and the coarse solves wait for it anyway.
  const std::size_t total = count * sizeof(Complex<Real>);
  if (host_out_.size() < total) {
    host_out_.resize(total);
    host_in_.resize(total);
  }
  auto* out = reinterpret_cast<Complex<Real>*>(host_out_.data());
  auto* arrived = reinterpret_cast<Complex<Real>*>(host_in_.data());
  detail::copy_bytes(out, Location::Host, send.data(), loc, total);
  for (const comm::Transfer& t : transfers(out, arrived))
    comm::send_receive(t.send, t.to, t.receive, t.from, t.bytes, t.tag);
  detail::copy_bytes(ghost.data(), loc, arrived, Location::Host, total);
}

template void CoarseHalo::exchange(const CoarseField<double>&, Buffer<Complex<double>>&, Buffer<Complex<double>>&) const;
template void CoarseHalo::exchange(const CoarseField<float>&, Buffer<Complex<float>>&, Buffer<Complex<float>>&) const;
template void CoarseHalo::exchange(const Complex<double>*, int, Location, Buffer<Complex<double>>&,
                                   Buffer<Complex<double>>&) const;
template void CoarseHalo::exchange(const Complex<float>*, int, Location, Buffer<Complex<float>>&,
                                   Buffer<Complex<float>>&) const;

}  // namespace lqcd
