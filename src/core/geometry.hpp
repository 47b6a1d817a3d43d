#pragma once
// Lattice geometry and site indexing.
//
// Conventions (DESIGN.md): directions 0..3 = x, y, z, t; the lexicographic site index runs with x
// fastest and t slowest (the ILDG order); the parity of a site is (x+y+z+t) mod 2 of its global
// coordinates. Fields are stored as two parity blocks; inside a block a site is addressed by its
// checkerboard index cb = lex / 2, which is exact because every local extent is even.

#include <array>
#include <cstdint>
#include <string>

#include "core/fast_divisor.hpp"
#include "core/macros.hpp"

namespace lqcd {

using Dims = std::array<int, 4>;
constexpr int kNumDims = 4;
constexpr int kTimeDir = 3;

std::string dims_string(const Dims& d);  // "8x8x8x16"
// Processes in a process grid (the product of its extents).
inline int process_count(const Dims& grid) { return grid[0] * grid[1] * grid[2] * grid[3]; }

// What this process holds of the global lattice. With one process local == global and offset = 0;
// the MPI decomposition fills in the other cases without changing any kernel.
//
// Halos (DESIGN.md "Field storage"): in a direction with halo[mu] = r > 0 a field also stores the r
// layers of sites beyond each face of the local box, corners and edges included (the "extended box"),
// after the interior sites of each parity block; a halo exchange fills them from the neighbouring
// processes (or from this process's own opposite face when grid[mu] = 1, which the tests use). Kernels
// then reach neighbours up to r sites away, also diagonally (staples, clover leaves need 1; rectangles 2),
// without knowing whether they are local. In a direction with halo[mu] = 0 neighbours wrap periodically
// inside the process, which requires grid[mu] = 1.
struct Geometry {
  Dims global{};
  Dims local{};
  Dims offset{};
  Dims grid{1, 1, 1, 1};  // processes per direction
  Dims halo{};            // halo depth per direction

  // Validates the extents (each even and >= 2) and throws lqcd::Error naming `what` otherwise.
  static Geometry single_process(const Dims& dims, const std::string& what = "lattice dims");

  std::int64_t volume() const { return std::int64_t(local[0]) * local[1] * local[2] * local[3]; }
  std::int64_t half_volume() const { return volume() / 2; }
  std::int64_t global_volume() const {
    return std::int64_t(global[0]) * global[1] * global[2] * global[3];
  }
  // Sites of the local box plus its halo layers.
  std::int64_t extended_volume() const {
    std::int64_t v = 1;
    for (int mu = 0; mu < 4; ++mu) v *= local[mu] + 2 * halo[mu];
    return v;
  }
  // Sites a parity block stores: its interior sites, then its halo sites.
  std::int64_t stored_half_volume() const { return extended_volume() / 2; }
  bool has_halo() const { return halo[0] + halo[1] + halo[2] + halo[3] > 0; }
  int processes() const { return process_count(grid); }
  // Whether global sums and halo exchanges involve other processes.
  bool distributed() const { return processes() > 1; }
  // This process's coordinates in the process grid.
  Dims grid_coords() const {
    return {offset[0] / local[0], offset[1] / local[1], offset[2] / local[2], offset[3] / local[3]};
  }
  bool operator==(const Geometry&) const = default;
};

// Throws lqcd::Error, naming the box, unless the local box (with its halo) has fewer than 2^31 sites.
void check_32_bit_indexing(const Geometry& g);

// The coordinates of site i of a box with extents n in lexicographic order (x fastest).
LQCD_HOST_DEVICE inline void lexicographic_coords(std::int64_t i, const int n[4], int x[4]) {
  x[0] = int(i % n[0]);
  i /= n[0];
  x[1] = int(i % n[1]);
  i /= n[1];
  x[2] = int(i % n[2]);
  x[3] = int(i / n[2]);
}

// Trivially copyable index arithmetic, passed by value into host and device kernels.
struct SiteIndexer {
  int n[4];
  int off[4];
  int gn[4];
  int r[4];  // halo depth per direction (0: periodic wrap inside the process)
  int nxh;  // n[0] / 2
  std::int64_t vh;  // sites per parity
  FastDivisor by_nxh, by_n1, by_n2;  // tiled_site's divisions

  // Throws lqcd::Error unless the local box has fewer than 2^31 sites (kernels index sites in 32 bits).
  static SiteIndexer from(const Geometry& g) {
    check_32_bit_indexing(g);
    SiteIndexer s{};
    for (int mu = 0; mu < 4; ++mu) {
      s.n[mu] = g.local[mu];
      s.off[mu] = g.offset[mu];
      s.gn[mu] = g.global[mu];
      s.r[mu] = g.halo[mu];
    }
    s.nxh = s.n[0] / 2;
    s.vh = g.half_volume();
    s.by_nxh = FastDivisor::of(std::uint32_t(s.nxh));
    s.by_n1 = FastDivisor::of(std::uint32_t(s.n[1]));
    s.by_n2 = FastDivisor::of(std::uint32_t(s.n[2]));
    return s;
  }

  LQCD_HOST_DEVICE std::int64_t lex(const int x[4]) const {
    return x[0] + std::int64_t(n[0]) * (x[1] + std::int64_t(n[1]) * (x[2] + std::int64_t(n[2]) * x[3]));
  }
  // The parity of local coordinates, halo sites (negative or >= n) included: it equals the parity of
  // the global coordinates because every offset is even.
  LQCD_HOST_DEVICE static int parity(const int x[4]) { return (x[0] + x[1] + x[2] + x[3]) & 1; }
  LQCD_HOST_DEVICE bool inside(const int x[4]) const {
    return unsigned(x[0]) < unsigned(n[0]) && unsigned(x[1]) < unsigned(n[1]) && unsigned(x[2]) < unsigned(n[2]) &&
           unsigned(x[3]) < unsigned(n[3]);
  }
  // Index within its parity block of the site at local coordinates x: lex / 2 inside the local box;
  // vh + (position among the halo sites) / 2 for a halo site. Halo sites are numbered in the
  // lexicographic order of the extended box, skipping the interior; every row of the extended box
  // holds an even number of halo sites that alternate in parity, so halving gives each parity a
  // dense range.
  LQCD_HOST_DEVICE std::int64_t cb_index(const int x[4]) const {
    if (inside(x)) return lex(x) >> 1;
    return vh + (halo_ordinal(x) >> 1);
  }
  LQCD_HOST_DEVICE std::int64_t halo_ordinal(const int x[4]) const {
    // Extended-box lexicographic index minus the interior sites that precede it in that order.
    const std::int64_t e0 = n[0] + 2 * r[0], e1 = n[1] + 2 * r[1], e2 = n[2] + 2 * r[2];
    const std::int64_t ext =
        (x[0] + r[0]) + e0 * ((x[1] + r[1]) + e1 * ((x[2] + r[2]) + e2 * std::int64_t(x[3] + r[3])));
    const auto below = [](int v, int m) { return std::int64_t(v < 0 ? 0 : (v > m ? m : v)); };
    const bool in1 = unsigned(x[1]) < unsigned(n[1]), in2 = unsigned(x[2]) < unsigned(n[2]),
               in3 = unsigned(x[3]) < unsigned(n[3]);
    std::int64_t before = below(x[3], n[3]) * n[0] * n[1] * n[2];
    if (in3) {
      before += below(x[2], n[2]) * n[0] * n[1];
      if (in2) {
        before += below(x[1], n[1]) * n[0];
        if (in1) before += below(x[0], n[0]);
      }
    }
    return ext - before;
  }

  // Coordinates of checkerboard site cb of the given parity (tiled_site in storage order: 32-bit
  // division, which the GPU kernels issue in far fewer instructions than 64-bit).
  LQCD_HOST_DEVICE void coords(int par, std::int64_t cb, int x[4]) const { tiled_site(par, cb, 1, x); }
  // The q-th site of a parity in the t-tiled visiting order (the checkerboard index a kernel thread q
  // takes): rows of nxh sites as stored, then y, then t within a tile of t_tile slices, then z, then
  // the tile; t_tile = 1 is the storage order. Why: a kernel reads the spinor at a site from its 8
  // neighbours, and in storage order the t-neighbours lie a whole time slice apart. When a time slice
  // of the input is larger than L2 can keep between the two reads (the multi-RHS blocks: 12 sources
  // of 32^3 / 2 sites are 19 MB in single precision), every input spinor comes from DRAM up to three
  // times. Within a tile the t-neighbours are a plane (nxh x n[1] sites) apart and the z-neighbours
  // t_tile planes; only the two boundary slices of a tile miss, a fraction 2 / t_tile of the reads.
  // Returns its checkerboard index and sets its coordinates x for parity p. n[3] % t_tile == 0
  // (tile_in_t). 32-bit arithmetic and divisions by multiplication (FastDivisor; a process holds
  // fewer than 2^31 sites, check_32_bit_indexing): a kernel spends far fewer instructions on them.
  LQCD_HOST_DEVICE std::int64_t tiled_site(int p, std::int64_t q, int t_tile, int x[4]) const {
    const unsigned nx = unsigned(nxh), n1 = unsigned(n[1]), n2 = unsigned(n[2]), tt = unsigned(t_tile);
    unsigned r = unsigned(q);
    unsigned next = by_nxh.divide(r);
    const unsigned xh = r - next * nx;
    r = next;
    next = by_n1.divide(r);
    x[1] = int(r - next * n1);
    r = next;
    unsigned tl = 0;
    if (tt > 1) {
      tl = r % tt;
      r /= tt;
    }
    next = by_n2.divide(r);
    x[2] = int(r - next * n2);
    x[3] = int(next * tt + tl);
    x[0] = int(2 * xh) + ((p + x[1] + x[2] + x[3]) & 1);
    return std::int64_t(xh) + std::int64_t(nxh) * (x[1] + std::int64_t(n[1]) * (x[2] + std::int64_t(n[2]) * x[3]));
  }
  // The largest divisor of n[3] with t_tile planes (nxh x n[1] sites of `site_bytes` each) within
  // `plane_budget` bytes, at least 1.
  int tile_in_t(std::int64_t site_bytes, std::int64_t plane_budget) const {
    int best = 1;
    const std::int64_t plane = std::int64_t(nxh) * n[1] * site_bytes;
    for (int d = 1; d <= n[3]; ++d)
      if (n[3] % d == 0 && d * plane <= plane_budget) best = d;
    return best;
  }
  // Coordinates of the lexicographic site.
  LQCD_HOST_DEVICE void coords_lex(std::int64_t i, int x[4]) const { lexicographic_coords(i, n, x); }

  // x + dir * mu-hat in place: periodic inside the process where mu has no halo, into the halo
  // (coordinates -r..-1 and n..n+r-1) where it has one.
  // Written with constant indices only: mu is often a run-time value (the link direction being
  // updated), and x[mu] would then force the coordinates into GPU local memory.
  LQCD_HOST_DEVICE void shift(int x[4], int mu, int dir) const {
    LQCD_UNROLL
    for (int k = 0; k < 4; ++k) {
      if (k != mu) continue;
      int v = x[k] + dir;
      if (r[k] == 0) {
        if (v >= n[k]) v -= n[k];
        if (v < 0) v += n[k];
      }
      x[k] = v;
    }
  }

  // Global lexicographic index: the key of the counter-based random numbers, so that a site draws
  // the same numbers whichever process or thread updates it.
  LQCD_HOST_DEVICE std::uint64_t global_lex(const int x[4]) const {
    const std::uint64_t gx = std::uint64_t(x[0] + off[0]), gy = std::uint64_t(x[1] + off[1]),
                        gz = std::uint64_t(x[2] + off[2]), gt = std::uint64_t(x[3] + off[3]);
    return gx + std::uint64_t(gn[0]) * (gy + std::uint64_t(gn[1]) * (gz + std::uint64_t(gn[2]) * gt));
  }
};

}  // namespace lqcd
