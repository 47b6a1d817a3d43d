#pragma once
// The 4D Cartesian grid of processes over which the lattice is split (one MPI rank per process, one
// GPU per rank). decompose() computes this rank's local box, its offset and its halos; the messages
// themselves go through comm/communicator.hpp. Rank order is lexicographic in the grid coordinates
// with x fastest, like sites.

#include <string>

#include "core/geometry.hpp"

namespace lqcd {

class ProcessGrid {
 public:
  // The one-process grid.
  static ProcessGrid single() { return ProcessGrid({1, 1, 1, 1}, 0); }
  // A grid of the given shape seen from `rank` (no communication: for the decomposition arithmetic
  // and its tests).
  ProcessGrid(const Dims& grid, int rank);
  // The grid of this run: its process count must equal the run's (mpirun -np); `what` names the
  // option or key in the error.
  static ProcessGrid of_run(const Dims& grid, const std::string& what = "--grid");
  // A grid for the run's processes: the given one if nonzero, else all processes along t (then z, y, x
  // where t does not divide).
  static Dims default_grid(const Dims& global, int processes);

  const Dims& grid() const { return grid_; }
  const Dims& coords() const { return coords_; }
  int rank() const { return rank_; }
  int size() const { return process_count(grid_); }
  bool is_root() const { return rank_ == 0; }
  // True when direction mu is split over processes (its neighbours live in halos).
  bool is_split(int mu) const { return grid_[mu] > 1; }

  // This rank's part of a global lattice: every global extent must divide by the grid, and every
  // local extent be even (checkerboarding); throws lqcd::Error naming `what` otherwise. Split
  // directions get halos of depth kHaloDepth (rectangles reach two sites); others none.
  static constexpr int kHaloDepth = 2;
  Geometry decompose(const Dims& global, const std::string& what = "lattice.dims") const;

 private:
  Dims grid_;
  Dims coords_{};
  int rank_;
};

}  // namespace lqcd
