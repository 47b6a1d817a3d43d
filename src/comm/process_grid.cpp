#include "comm/process_grid.hpp"

#include "comm/communicator.hpp"
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
    g.grid[mu] = grid_[mu];
    g.halo[mu] = grid_[mu] > 1 ? kHaloDepth : 0;
  }
  return g;
}

ProcessGrid ProcessGrid::of_run(const Dims& grid, const std::string& what) {
  const int n = process_count(grid);
  if (n != comm::size())
    fail("{} {}: {} processes, but this run has {} (start it with mpirun -np {}{})", what, dims_string(grid), n,
         comm::size(), n, comm::built_with_mpi() ? "" : "; this build has no MPI");
  return ProcessGrid(grid, comm::rank());
}

Dims ProcessGrid::default_grid(const Dims& global, int processes) {
  Dims grid{1, 1, 1, 1};
  int left = processes;
  // Split t first (the longest direction of most ensembles), then z, y, x, each as far as the local
  // extent stays even.
  for (int mu = 3; mu >= 0 && left > 1; --mu) {
    while (left > 1) {
      int f = 2;
      while (f <= left && left % f != 0) ++f;
      if (global[mu] % (grid[mu] * f) != 0 || (global[mu] / (grid[mu] * f)) % 2 != 0) break;
      grid[mu] *= f;
      left /= f;
    }
  }
  if (left > 1)
    fail("{} processes cannot split the lattice {} into even local extents; give the process grid explicitly "
         "(--grid)", processes, dims_string(global));
  return grid;
}

}  // namespace lqcd
