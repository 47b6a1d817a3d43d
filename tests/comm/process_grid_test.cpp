// The decomposition arithmetic the MPI build will rely on.
#include <gtest/gtest.h>

#include <vector>

#include "comm/process_grid.hpp"
#include "core/error.hpp"

namespace lqcd {
namespace {

TEST(ProcessGrid, SingleProcessHoldsTheWholeLattice) {
  const Geometry g = ProcessGrid::single().decompose({8, 4, 6, 12});
  EXPECT_EQ(g.local, (Dims{8, 4, 6, 12}));
  EXPECT_EQ(g.offset, (Dims{0, 0, 0, 0}));
  EXPECT_EQ(g, Geometry::single_process({8, 4, 6, 12}));
}

TEST(ProcessGrid, LocalBoxesTileTheGlobalLatticeExactlyOnce) {
  const Dims grid{1, 2, 1, 4}, global{4, 8, 4, 16};
  const int size = 8;
  std::vector<int> covered(4 * 8 * 4 * 16, 0);
  for (int rank = 0; rank < size; ++rank) {
    const ProcessGrid pg(grid, rank);
    const Geometry g = pg.decompose(global);
    const SiteIndexer idx = SiteIndexer::from(g);
    for (std::int64_t i = 0; i < g.volume(); ++i) {
      int x[4];
      idx.coords_lex(i, x);
      ++covered[idx.global_lex(x)];
      // Local parity equals global parity because offsets are even.
      EXPECT_EQ(SiteIndexer::parity(x), (x[0] + g.offset[0] + x[1] + g.offset[1] + x[2] + g.offset[2] + x[3] +
                                         g.offset[3]) & 1);
    }
  }
  for (int c : covered) EXPECT_EQ(c, 1);
}

TEST(ProcessGrid, RejectsIndivisibleOrOddLocalExtents) {
  EXPECT_THROW(ProcessGrid({1, 1, 3, 1}, 0).decompose({4, 4, 8, 4}), Error);  // 8 / 3
  EXPECT_THROW(ProcessGrid({1, 1, 4, 1}, 0).decompose({4, 4, 4, 4}), Error);  // local extent 1
  EXPECT_THROW(ProcessGrid({2, 1, 1, 1}, 0).decompose({6, 4, 4, 4}), Error);  // local extent 3 is odd
  EXPECT_THROW(ProcessGrid({2, 1, 1, 1}, 2), Error);                          // no rank 2
}

}  // namespace
}  // namespace lqcd
