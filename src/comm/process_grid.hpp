#pragma once
// The 4D Cartesian grid of processes over which the lattice is split. This build runs one process
// (grid 1x1x1x1); the MPI issue fills in communication without changing the interface: decompose()
// already computes every rank's local box and offset, and global sums already pass through sum().
// Rank order is lexicographic in the grid coordinates with x fastest, like sites.

#include <span>

#include "core/geometry.hpp"

namespace lqcd {

class ProcessGrid {
 public:
  // The one-process grid.
  static ProcessGrid single() { return ProcessGrid({1, 1, 1, 1}, 0); }
  // A grid of the given shape seen from `rank` (no communication: for the decomposition arithmetic
  // and its tests; the MPI build constructs it from MPI_Cart_create).
  ProcessGrid(const Dims& grid, int rank);

  const Dims& grid() const { return grid_; }
  const Dims& coords() const { return coords_; }
  int rank() const { return rank_; }
  int size() const { return grid_[0] * grid_[1] * grid_[2] * grid_[3]; }
  bool is_root() const { return rank_ == 0; }
  // True when direction mu is split over processes (its neighbours live in halos).
  bool is_split(int mu) const { return grid_[mu] > 1; }

  // This rank's part of a global lattice: every global extent must divide by the grid, and every
  // local extent be even (checkerboarding); throws lqcd::Error naming `what` otherwise.
  Geometry decompose(const Dims& global, const std::string& what = "lattice.dims") const;

  // Global sums, in a fixed order so results do not depend on timing (identity for one process).
  void sum(std::span<double> values) const;

 private:
  Dims grid_;
  Dims coords_{};
  int rank_;
};

}  // namespace lqcd
