#include "solvers/aggregation.hpp"

#include "core/error.hpp"

namespace lqcd {

Aggregation Aggregation::make(const Geometry& fine, const Dims& block, const std::string& key) {
  if (fine.distributed() || fine.has_halo())
    fail("{}: multigrid runs on one process for now; run without --grid", key);
  Aggregation a{};
  a.fine = SiteIndexer::from(fine);
  a.block_sites = 1;
  a.colours = 1;
  Dims coarse{};
  for (int mu = 0; mu < 4; ++mu) {
    const int b = block[std::size_t(mu)], n = fine.local[std::size_t(mu)];
    if (b < 2 || n % b != 0 || n / b < 2)
      fail("{} = {}: each block extent must be at least 2 and divide the lattice extent ({}) at least twice", key,
           dims_string(block), dims_string(fine.local));
    a.b[mu] = b;
    coarse[std::size_t(mu)] = n / b;
    a.block_sites *= b;
    int m = 2;
    while (coarse[std::size_t(mu)] % m != 0) ++m;
    a.colour_period[mu] = m;
    a.colours *= m;
  }
  a.coarse = CoarseLattice::of(coarse);
  return a;
}

}  // namespace lqcd
