#include "comm/process_grid.hpp"

#include "core/error.hpp"

namespace lqcd {

ProcessGrid::ProcessGrid(const Dims& grid, int rank) : grid_(grid), rank_(rank) {
  for (int mu = 0; mu < 4; ++mu)
    if (grid[mu] < 1) fail("process grid {}: every entry must be at least 1", dims_string(grid));
  if (rank < 0 || rank >= size()) fail("process grid {}: rank {} out of range", dims_string(grid), rank);
  int r = rank;
  for (int mu = 0; mu < 4; ++mu) {
    coords_[mu] = r % grid[mu];
    r /= grid[mu];
  }
}

Geometry ProcessGrid::decompose(const Dims& global, const std::string& what) const {
  Geometry g;
  g.global = global;
  for (int mu = 0; mu < 4; ++mu) {
    if (global[mu] % grid_[mu] != 0)
      fail("{}: extent {} in direction {} does not divide over {} processes (grid {})", what, global[mu], "xyzt"[mu],
           grid_[mu], dims_string(grid_));
    g.local[mu] = global[mu] / grid_[mu];
    g.offset[mu] = coords_[mu] * g.local[mu];
    if (g.local[mu] < 2 || g.local[mu] % 2 != 0)
      fail("{}: local extent {} in direction {} (global {} over grid {}) must be even and at least 2", what,
           g.local[mu], "xyzt"[mu], dims_string(global), dims_string(grid_));
  }
  return g;
}

void ProcessGrid::sum(std::span<double>) const {
  // One process: the local sums are the global ones.
}

}  // namespace lqcd
