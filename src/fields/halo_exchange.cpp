#include "fields/halo_exchange.hpp"

#include <algorithm>
#include <vector>

#include "comm/communicator.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"

namespace lqcd {

namespace {

// Grow-only message buffers, reused by every exchange (device allocations are slow).
struct MessageBuffers {
  Buffer<std::byte> send[2], receive[2];  // where the field lives, per side
  Buffer<std::byte> host_send, host_receive;  // staging for MPI
};

std::byte* reserve(Buffer<std::byte>& b, std::size_t bytes, Location loc) {
  if (b.size() < bytes || b.location() != loc) b = Buffer<std::byte>(std::max(bytes, std::size_t(1)), loc);
  return b.data();
}

MessageBuffers& buffers(Location loc) {
  static MessageBuffers host, device;
  return loc == Location::Device ? device : host;
}

template <typename T>
void copy_box(T* data, T* message, Location loc, const Geometry& g, const HaloLayout& l, const HaloBox& box,
              int unpack) {
  const HaloCopyKernel<T> k{data,          message,        SiteIndexer::from(g), box,      l.stride,
                            l.group_pitch, l.parity_pitch, l.groups,             l.components, l.parity,
                            unpack};
  for_each(loc, box.sites(), k);
}

// The slab this process sends forward ([n - d, n) in mu) and backward ([0, d)); in the directions done
// before mu it includes their halo layers (edges and corners), after mu not.
HaloBox message_slab(const Geometry& g, int mu, int depth) {
  HaloBox slab{};
  for (int nu = 0; nu < 4; ++nu) {
    const int r = nu < mu ? std::min(depth, g.halo[nu]) : 0;
    slab.lo[nu] = -r;
    slab.extent[nu] = g.local[nu] + 2 * r;
  }
  slab.extent[mu] = std::min(depth, g.halo[mu]);
  return slab;
}

}  // namespace

std::int64_t halo_message_sites(const Geometry& g, int mu, int depth) {
  return std::min(depth, g.halo[mu]) > 0 ? message_slab(g, mu, depth).sites() : 0;
}

template <typename T>
void exchange_halo(T* data, Location loc, const Geometry& g, const HaloLayout& layout, int depth) {
  if (!g.has_halo()) return;
  MessageBuffers& mb = buffers(loc);
  const Dims coords = g.grid_coords();
  for (int mu = 0; mu < 4; ++mu) {
    const int d = std::min(depth, g.halo[mu]);
    if (d <= 0) continue;
    const HaloBox slab = message_slab(g, mu, depth);
    const std::int64_t sites = slab.sites();
    const std::size_t bytes = std::size_t(sites) * std::size_t(layout.vectors()) * sizeof(T);
    for (int side = 0; side < 2; ++side) {  // 0: send forward, fill the backward halo; 1: the reverse
      HaloBox from = slab, to = slab;
      from.lo[mu] = side == 0 ? g.local[mu] - d : 0;
      to.lo[mu] = side == 0 ? -d : g.local[mu];
      T* send = reinterpret_cast<T*>(reserve(mb.send[side], bytes, loc));
      copy_box(data, send, loc, g, layout, from, 0);
      T* receive = send;
      if (g.grid[mu] > 1) {
        const int dir = side == 0 ? +1 : -1;
        const int to_rank = comm::neighbour_rank(g.grid, coords, mu, dir);
        const int from_rank = comm::neighbour_rank(g.grid, coords, mu, -dir);
        receive = reinterpret_cast<T*>(reserve(mb.receive[side], bytes, loc));
        if (loc == Location::Host) {
          comm::send_receive(send, to_rank, receive, from_rank, bytes, 2 * mu + side);
        } else {  // staged through host memory (MPI here is not assumed CUDA-aware)
          std::byte* hs = reserve(mb.host_send, bytes, Location::Host);
          std::byte* hr = reserve(mb.host_receive, bytes, Location::Host);
          detail::copy_bytes(hs, Location::Host, send, loc, bytes);
          comm::send_receive(hs, to_rank, hr, from_rank, bytes, 2 * mu + side);
          detail::copy_bytes(receive, loc, hr, Location::Host, bytes);
        }
      }
      copy_box(data, receive, loc, g, layout, to, 1);
    }
  }
}

template void exchange_halo<Complex<double>>(Complex<double>*, Location, const Geometry&, const HaloLayout&, int);
template void exchange_halo<Complex<float>>(Complex<float>*, Location, const Geometry&, const HaloLayout&, int);
template void exchange_halo<FixedPair>(FixedPair*, Location, const Geometry&, const HaloLayout&, int);
template void exchange_halo<FloatPair>(FloatPair*, Location, const Geometry&, const HaloLayout&, int);

}  // namespace lqcd
