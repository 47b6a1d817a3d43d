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

}  // namespace lqcd
