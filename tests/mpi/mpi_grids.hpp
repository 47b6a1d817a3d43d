#pragma once
// The process grids the distributed tests try for this run's size (mpirun -np 2 or 4); each splits at
// least one direction, and together they split every direction some test lattice allows.
#include <gtest/gtest.h>

#include <vector>

#include "comm/communicator.hpp"
#include "core/geometry.hpp"
#include "core/memory.hpp"

namespace lqcd::test {

inline std::vector<Dims> mpi_grids() {
  switch (comm::size()) {
    case 2: return {{1, 1, 1, 2}, {2, 1, 1, 1}, {1, 2, 1, 1}};
    case 4: return {{1, 1, 2, 2}, {2, 1, 1, 2}, {1, 1, 1, 4}, {4, 1, 1, 1}};
    default: return {};
  }
}

// The distributed tests, one case per location: skipped on a single process and, for the device case,
// without a GPU.
class DistributedTest : public ::testing::TestWithParam<Location> {
 protected:
  void SetUp() override {
    if (comm::size() < 2) GTEST_SKIP() << "run under mpirun -np 2 or 4";
    if (GetParam() == Location::Device && !device_available()) GTEST_SKIP() << "no GPU";
  }
};

}  // namespace lqcd::test
