#include "core/geometry.hpp"

#include "core/error.hpp"

namespace lqcd {

std::string dims_string(const Dims& d) { return fmt::format("{}x{}x{}x{}", d[0], d[1], d[2], d[3]); }

Geometry Geometry::single_process(const Dims& dims, const std::string& what) {
  for (int mu = 0; mu < 4; ++mu) {
    if (dims[mu] < 2 || dims[mu] % 2 != 0)
      fail("{}: extent {} in direction {} must be even and at least 2 (got {}); even-odd "
           "preconditioning and the checkerboard updates need even extents",
           what, dims[mu], "xyzt"[mu], dims_string(dims));
  }
  Geometry g;
  g.global = dims;
  g.local = dims;
  g.offset = {0, 0, 0, 0};
  return g;
}

void check_32_bit_indexing(const Geometry& g) {
  if (g.extended_volume() >= (std::int64_t(1) << 31))
    fail("local lattice {} (with halo) has {} sites; the kernels index a process's sites in 32 bits, so "
         "at most 2^31 - 1: split the lattice over more processes",
         dims_string(g.local), g.extended_volume());
}

}  // namespace lqcd
