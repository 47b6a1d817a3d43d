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

#include "core/macros.hpp"

namespace lqcd {

using Dims = std::array<int, 4>;
constexpr int kNumDims = 4;
constexpr int kTimeDir = 3;

std::string dims_string(const Dims& d);  // "8x8x8x16"

// What this process holds of the global lattice. With one process local == global and offset = 0;
// the MPI decomposition fills in the other cases without changing any kernel.
struct Geometry {
  Dims global{};
  Dims local{};
  Dims offset{};

  // Validates the extents (each even and >= 2) and throws lqcd::Error naming `what` otherwise.
  static Geometry single_process(const Dims& dims, const std::string& what = "lattice dims");

  std::int64_t volume() const { return std::int64_t(local[0]) * local[1] * local[2] * local[3]; }
  std::int64_t half_volume() const { return volume() / 2; }
  std::int64_t global_volume() const {
    return std::int64_t(global[0]) * global[1] * global[2] * global[3];
  }
  bool operator==(const Geometry&) const = default;
};

// Trivially copyable index arithmetic, passed by value into host and device kernels.
struct SiteIndexer {
  int n[4];
  int off[4];
  int gn[4];
  int nxh;  // n[0] / 2
  std::int64_t vh;  // sites per parity

  static SiteIndexer from(const Geometry& g) {
    SiteIndexer s{};
    for (int mu = 0; mu < 4; ++mu) {
      s.n[mu] = g.local[mu];
      s.off[mu] = g.offset[mu];
      s.gn[mu] = g.global[mu];
    }
    s.nxh = s.n[0] / 2;
    s.vh = g.half_volume();
    return s;
  }

  LQCD_HOST_DEVICE std::int64_t lex(const int x[4]) const {
    return x[0] + std::int64_t(n[0]) * (x[1] + std::int64_t(n[1]) * (x[2] + std::int64_t(n[2]) * x[3]));
  }
  LQCD_HOST_DEVICE static int parity(const int x[4]) { return (x[0] + x[1] + x[2] + x[3]) & 1; }
  LQCD_HOST_DEVICE std::int64_t cb_index(const int x[4]) const { return lex(x) >> 1; }

  // Coordinates of checkerboard site cb of the given parity.
  LQCD_HOST_DEVICE void coords(int par, std::int64_t cb, int x[4]) const {
    const int xh = int(cb % nxh);
    std::int64_t r = cb / nxh;
    x[1] = int(r % n[1]);
    r /= n[1];
    x[2] = int(r % n[2]);
    x[3] = int(r / n[2]);
    x[0] = 2 * xh + ((par + x[1] + x[2] + x[3]) & 1);
  }
  // Coordinates of the lexicographic site.
  LQCD_HOST_DEVICE void coords_lex(std::int64_t i, int x[4]) const {
    x[0] = int(i % n[0]);
    i /= n[0];
    x[1] = int(i % n[1]);
    i /= n[1];
    x[2] = int(i % n[2]);
    x[3] = int(i / n[2]);
  }

  // x + dir * mu-hat in place, periodic (one process: the halo is the periodic image).
  // Written with constant indices only: mu is often a run-time value (the link direction being
  // updated), and x[mu] would then force the coordinates into GPU local memory.
  LQCD_HOST_DEVICE void shift(int x[4], int mu, int dir) const {
    LQCD_UNROLL
    for (int k = 0; k < 4; ++k) {
      if (k != mu) continue;
      int v = x[k] + dir;
      if (v >= n[k]) v -= n[k];
      if (v < 0) v += n[k];
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
