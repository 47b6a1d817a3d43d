#include "solvers/multigrid/aggregation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "core/error.hpp"

namespace lqcd {

void check_aggregation_block(const Dims& lattice, const Dims& block, const std::string& key,
                             const std::string& lattice_name, const Dims& grid) {
  for (int mu = 0; mu < 4; ++mu) {
    const int b = block[std::size_t(mu)], n = lattice[std::size_t(mu)];
    const int least = grid[std::size_t(mu)] > 1 ? 1 : 2;
    if (b < 2 || b > 255 || n % b != 0 || n / b < least)
      fail("{} = {}: each block extent must be 2 to 255 and divide the extent of {} ({}) at least twice{}", key,
           dims_string(block), lattice_name, dims_string(lattice),
           process_count(grid) > 1 ? fmt::format(" (once where split over the processes {})", dims_string(grid)) : "");
  }
}

namespace {
// The blocks, the coarse lattice and the colouring of an aggregation of `fine` extents.
void set_blocks(Aggregation& a, const Dims& fine, const Dims& block) {
  a.block_sites = 1;
  a.colours = 1;
  Dims coarse{};
  for (int mu = 0; mu < 4; ++mu) {
    const int b = block[std::size_t(mu)], n = fine[std::size_t(mu)];
    a.b[mu] = b;
    coarse[std::size_t(mu)] = n / b;
    a.block_sites *= b;
    int m = coarse[std::size_t(mu)] == 1 ? 1 : 2;  // (one block: a split level's direction, make_coarse)
    while (coarse[std::size_t(mu)] % m != 0) ++m;
    a.colour_period[mu] = m;
    a.colours *= m;
  }
  a.coarse = CoarseLattice::of(coarse);
}
}  // namespace

Aggregation Aggregation::make(const Geometry& fine, const Dims& block, const std::string& key) {
  // On several processes the blocks tile this process's box (solvers/multigrid/coarse_agglomeration.hpp joins the
  // coarse parts): block sites are never split between processes.
  check_aggregation_block(fine.local, block, key,
                          fine.distributed() ? "each process's part of the lattice under --grid " + dims_string(fine.grid)
                                             : "the lattice");
  Aggregation a{};
  a.fine = SiteIndexer::from(fine);
  a.fine_volume = fine.volume();
  a.lexicographic = false;
  set_blocks(a, fine.local, block);
  return a;
}

Aggregation Aggregation::make_coarse(const CoarseLattice& fine, const Dims& block, const std::string& key,
                                     const Dims& grid) {
  check_aggregation_block(fine.dims(), block, key,
                          process_count(grid) > 1 ? "each process's part of the coarse lattice" : "the coarse lattice", grid);
  Aggregation a{};
  for (int mu = 0; mu < 4; ++mu) a.fine.n[mu] = a.fine.gn[mu] = fine.n[mu];  // lex() needs the extents only
  a.fine_volume = fine.sites;
  a.lexicographic = true;
  set_blocks(a, fine.dims(), block);
  return a;
}

namespace {
Buffer<std::int32_t> to_location(const std::vector<std::int32_t>& v, Location loc) {
  Buffer<std::int32_t> host(v.size(), Location::Host);
  std::copy(v.begin(), v.end(), host.data());
  if (loc == Location::Host) return host;
  Buffer<std::int32_t> b(v.size(), loc);
  b.copy_from(host);
  return b;
}
}  // namespace

AggregationTables::AggregationTables(const Aggregation& agg, Location loc) {
  if (agg.fine_volume > std::numeric_limits<std::int32_t>::max())
    fail("internal: multigrid tables index a lattice of more than 2^31 sites");
  const std::int64_t nc = agg.coarse.sites, volume = agg.fine_volume;
  std::vector<std::int32_t> block_fine(static_cast<std::size_t>(nc * agg.block_sites)),
      fine_block(static_cast<std::size_t>(volume)), fine_local(static_cast<std::size_t>(volume)),
      colour(static_cast<std::size_t>(nc)), neighbour(static_cast<std::size_t>(nc * 8));
  for (std::int64_t Y = 0; Y < nc; ++Y) {
    colour[std::size_t(Y)] = agg.colour_of_site(Y);
    for (int mu = 0; mu < 4; ++mu)
      for (int dir = 1; dir >= -1; dir -= 2)
        neighbour[std::size_t(Y * 8 + 2 * mu + (dir < 0 ? 1 : 0))] = std::int32_t(agg.coarse.neighbour(Y, mu, dir));
    for (int j = 0; j < agg.block_sites; ++j) {
      int x[4];
      agg.block_site(Y, j, x);
      const std::int64_t i = agg.fine_index(x);
      block_fine[std::size_t(Y * agg.block_sites + j)] = std::int32_t(i);
      fine_block[std::size_t(i)] = std::int32_t(Y);
      std::int32_t packed = 0;
      for (int mu = 0; mu < 4; ++mu) packed |= std::int32_t(x[mu] % agg.b[mu]) << (8 * mu);
      fine_local[std::size_t(i)] = packed;
    }
  }
  block_fine_ = to_location(block_fine, loc);
  fine_block_ = to_location(fine_block, loc);
  fine_local_ = to_location(fine_local, loc);
  colour_ = to_location(colour, loc);
  neighbour_ = to_location(neighbour, loc);
  agg_ = agg;
  agg_.block_fine = block_fine_.data();
  agg_.fine_block = fine_block_.data();
  agg_.fine_local = fine_local_.data();
  agg_.coarse_colour = colour_.data();
  agg_.coarse_neighbour = neighbour_.data();
}



}  // namespace lqcd
