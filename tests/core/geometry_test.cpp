// Indexing: lexicographic x-fastest order, checkerboard index = lex/2, parity, periodic shifts.
#include <gtest/gtest.h>

#include <omp.h>

#include <set>
#include <vector>

#include "core/exec_host.hpp"
#include "core/error.hpp"
#include "core/geometry.hpp"
#include "core/reduction.hpp"

namespace lqcd {
namespace {

TEST(Geometry, RejectsOddOrTinyExtents) {
  EXPECT_THROW(Geometry::single_process({4, 4, 3, 4}), Error);
  EXPECT_THROW(Geometry::single_process({0, 4, 4, 4}), Error);
  try {
    Geometry::single_process({4, 5, 4, 4}, "lattice.dims");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("lattice.dims"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("direction y"), std::string::npos);
  }
}

TEST(Geometry, KernelsRefuseALocalBoxBeyond32BitIndexing) {
  // The hopping kernels index a process's sites in 32 bits (wilson_hop_with): 2^31 sites must be
  // refused with a message that names the box, a box below it accepted.
  const Geometry too_large = Geometry::single_process({256, 256, 256, 128});  // 2^31 sites
  try {
    (void)SiteIndexer::from(too_large);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("256x256x256x128"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("more processes"), std::string::npos);
  }
  EXPECT_NO_THROW((void)SiteIndexer::from(Geometry::single_process({256, 256, 256, 126})));
}

TEST(Geometry, LexicographicOrderIsXFastest) {
  const Geometry g = Geometry::single_process({4, 6, 2, 8});
  const SiteIndexer idx = SiteIndexer::from(g);
  int x[4] = {1, 0, 0, 0};
  EXPECT_EQ(idx.lex(x), 1);
  int y[4] = {0, 1, 0, 0};
  EXPECT_EQ(idx.lex(y), 4);
  int t[4] = {0, 0, 0, 1};
  EXPECT_EQ(idx.lex(t), 4 * 6 * 2);
}

TEST(Geometry, CheckerboardIndexIsABijectionPerParity) {
  const Geometry g = Geometry::single_process({4, 6, 2, 8});
  const SiteIndexer idx = SiteIndexer::from(g);
  std::set<std::int64_t> seen[2];
  for (std::int64_t i = 0; i < g.volume(); ++i) {
    int x[4];
    idx.coords_lex(i, x);
    EXPECT_EQ(idx.lex(x), i);
    const int p = SiteIndexer::parity(x);
    const std::int64_t cb = idx.cb_index(x);
    ASSERT_LT(cb, g.half_volume());
    seen[p].insert(cb);
    int y[4];
    idx.coords(p, cb, y);
    for (int mu = 0; mu < 4; ++mu) EXPECT_EQ(x[mu], y[mu]);
  }
  EXPECT_EQ(std::int64_t(seen[0].size()), g.half_volume());
  EXPECT_EQ(std::int64_t(seen[1].size()), g.half_volume());
}

// The t-tiled visiting order (SiteIndexer::tiled_site) visits every site of a parity once, gives its
// coordinates as coords does, keeps each row of x in storage order, and visits the sites of one tile in the order (y, t, z): the t-neighbour
// of a site inside a tile is one plane (nxh x Y sites) later, its z-neighbour t_tile planes later.
TEST(Geometry, TiledVisitingOrderIsAPermutationThatKeepsTNeighboursClose) {
  const Geometry g = Geometry::single_process({4, 6, 4, 12});
  const SiteIndexer idx = SiteIndexer::from(g);
  const std::int64_t plane = idx.nxh * 6;
  for (int tile : {1, 2, 3, 4, 6, 12}) {
    std::set<std::int64_t> seen;
    std::vector<std::int64_t> position(std::size_t(g.half_volume()));
    for (std::int64_t q = 0; q < g.half_volume(); ++q) {
      int x[4], y[4], prev[4];
      const std::int64_t s = idx.tiled_site(1, q, tile, x);
      ASSERT_GE(s, 0);
      ASSERT_LT(s, g.half_volume());
      seen.insert(s);
      position[std::size_t(s)] = q;
      idx.coords(1, s, y);
      for (int mu = 0; mu < 4; ++mu) EXPECT_EQ(x[mu], y[mu]) << "t_tile " << tile << ", q " << q;
      if (q % idx.nxh) {
        EXPECT_EQ(s, idx.tiled_site(1, q - 1, tile, prev) + 1) << "rows stay in storage order";
      }
    }
    EXPECT_EQ(std::int64_t(seen.size()), g.half_volume()) << "t_tile " << tile;
    for (std::int64_t s = 0; s < g.half_volume(); ++s) {
      int x[4];
      idx.coords(0, s, x);
      if ((x[3] + 1) % tile == 0) continue;  // the last slice of a tile: its t-neighbour is in the next tile
      const int y[4] = {x[0], x[1], x[2], x[3] + 1};  // parity 1: the order is the same in both parities
      EXPECT_EQ(position[std::size_t(idx.cb_index(y))] - position[std::size_t(s)], plane) << "t_tile " << tile;
    }
  }
  EXPECT_EQ(idx.tile_in_t(1, 4 * plane), 4);    // 4 planes fit; 4 divides 12
  EXPECT_EQ(idx.tile_in_t(1, 5 * plane), 4);    // 5 does not divide 12
  EXPECT_EQ(idx.tile_in_t(1, plane - 1), 1);    // not even one plane: storage order
  EXPECT_EQ(idx.tile_in_t(1, 100 * plane), 12);  // the whole extent
}

TEST(Geometry, ShiftsArePeriodicAndFlipParity) {
  const Geometry g = Geometry::single_process({4, 4, 4, 6});
  const SiteIndexer idx = SiteIndexer::from(g);
  int x[4] = {3, 0, 2, 5};
  const int p = SiteIndexer::parity(x);
  idx.shift(x, 0, +1);
  EXPECT_EQ(x[0], 0);
  EXPECT_NE(SiteIndexer::parity(x), p);
  idx.shift(x, 1, -1);
  EXPECT_EQ(x[1], 3);
  idx.shift(x, 3, +1);
  EXPECT_EQ(x[3], 0);
}

struct IndexSumKernel {
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<2>& acc) const {
    acc[0] += 1.0 / double(i + 1);  // rounding depends on the order of the additions
    acc[1] += double(i);
  }
};

TEST(HostExec, ReductionsDoNotDependOnTheThreadCount) {
  const std::int64_t n = 100003;
  std::vector<double> results;
  for (int threads : {1, 2, 3, 7}) {
    omp_set_num_threads(threads);
    const Sums<2> s = HostExec::reduce<Sums<2>>(n, IndexSumKernel{});
    results.push_back(s[0]);
    EXPECT_EQ(s[1], double(n) * double(n - 1) / 2);
  }
  omp_set_num_threads(2);
  for (double r : results) EXPECT_EQ(r, results.front());  // bit-identical
}

}  // namespace
}  // namespace lqcd
