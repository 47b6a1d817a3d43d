#pragma once
// The process grids the distributed tests try for this run's size (mpirun -np 2 or 4); each splits at
// least one direction, and together they split every direction some test lattice allows.
#include <vector>

#include "comm/communicator.hpp"
#include "core/geometry.hpp"

namespace lqcd::test {

inline std::vector<Dims> mpi_grids() {
  switch (comm::size()) {
    case 2: return {{1, 1, 1, 2}, {2, 1, 1, 1}, {1, 2, 1, 1}};
    case 4: return {{1, 1, 2, 2}, {2, 1, 1, 2}, {1, 1, 1, 4}, {4, 1, 1, 1}};
    default: return {};
  }
}

}  // namespace lqcd::test
