#pragma once
// The aggregation of a multigrid level (solvers/multigrid/multigrid.hpp): the fine lattice cut into blocks of
// b[0] x b[1] x b[2] x b[3] sites, each block one site of the coarse lattice (Y_mu = x_mu / b_mu).
// Trivially copyable, for host and device kernels.
//
// Colouring (for building the coarse operator by probing, solvers/multigrid/coarse_operator.hpp): coarse site Y
// has colour sum_mu (Y_mu mod m_mu) * prod_{nu < mu} m_nu, with m_mu the smallest divisor >= 2 of the
// coarse extent L_mu, so colours repeat periodically around the lattice. Two coarse sites of one colour
// differ by a multiple of m_mu >= 2 in every direction where they differ; hence a block whose colour
// differs from colour c in exactly one direction mu has at most its two neighbours Y +- mu-hat of colour
// c (both when m_mu = 2), and a nearest-neighbour fine operator reaches its upper mu-face only from
// Y + mu-hat and its lower mu-face only from Y - mu-hat: the two faces are apart because b_mu >= 2.

#include <cstdint>
#include <string>

#include "core/geometry.hpp"
#include "core/memory.hpp"
#include "solvers/multigrid/coarse_field.hpp"

namespace lqcd {

struct Aggregation {
  // Look-up tables (AggregationTables, which must outlive every copy that uses them): the kernels read
  // them instead of redoing the index arithmetic (integer divisions) for every site and component.
  const std::int32_t* block_fine = nullptr;   // [Y * block_sites + j]: the full-field index of block_site(Y, j)
  const std::int32_t* fine_block = nullptr;   // [i]: the coarse site of fine site i
  const std::int32_t* fine_local = nullptr;   // [i]: its coordinates in the block, 8 bits per direction
  const std::int32_t* coarse_colour = nullptr;     // [Y]: colour(Y)
  const std::int32_t* coarse_neighbour = nullptr;  // [Y * 8 + 2 mu + (dir < 0)]
  SiteIndexer fine;             // the fine lattice's extents (n) and, on the finest level, its indexing
  std::int64_t fine_volume;     // fine sites
  bool lexicographic;           // fine sites indexed lexicographically (a coarse lattice), else as spinor fields
  int b[4];
  CoarseLattice coarse;
  int block_sites;
  int colour_period[4];  // m_mu
  int colours;

  // Validates: block extents >= 2 dividing the extents of this process's part of the fine lattice (its
  // local box; halo sites are never block sites), coarse extents >= 2. Throws lqcd::Error naming `key`
  // otherwise. On several processes `coarse` is this process's part of the coarse lattice.
  static Aggregation make(const Geometry& fine, const Dims& block, const std::string& key);
  // The aggregation of a coarse lattice (a multigrid level below the first; its sites indexed as
  // CoarseLattice::lex), with the same checks; `fine` this process's part of a level split over `grid`,
  // where a direction split over processes needs one block per process (the hops across the boundary
  // leave it through the exchanged faces: solvers/multigrid/coarse_transfer_kernels.hpp).
  static Aggregation make_coarse(const CoarseLattice& fine, const Dims& block, const std::string& key,
                                 const Dims& grid = {1, 1, 1, 1});

  // The coarse site of fine coordinates x.
  LQCD_HOST_DEVICE std::int64_t coarse_site(const int x[4]) const {
    const int X[4] = {x[0] / b[0], x[1] / b[1], x[2] / b[2], x[3] / b[3]};
    return coarse.lex(X);
  }
  // The fine coordinates of the j-th site (x fastest) of coarse site Y's block.
  LQCD_HOST_DEVICE void block_site(std::int64_t Y, int j, int x[4]) const {
    coarse.coords(Y, x);
    int r = j;
    LQCD_UNROLL
    for (int mu = 0; mu < 4; ++mu) {
      x[mu] = x[mu] * b[mu] + r % b[mu];
      r /= b[mu];
    }
  }
  // The index of fine coordinates x in a full spinor field (SpinorView: parity block, then checkerboard),
  // or on a coarse lattice its lexicographic index.
  LQCD_HOST_DEVICE std::int64_t fine_index(const int x[4]) const {
    if (lexicographic) return fine.lex(x);
    return std::int64_t(SiteIndexer::parity(x)) * fine.vh + (fine.lex(x) >> 1);
  }
  LQCD_HOST_DEVICE int colour(const int X[4]) const {
    int c = 0, stride = 1;
    LQCD_UNROLL
    for (int mu = 0; mu < 4; ++mu) {
      c += (X[mu] % colour_period[mu]) * stride;
      stride *= colour_period[mu];
    }
    return c;
  }
  LQCD_HOST_DEVICE int colour_of_site(std::int64_t Y) const {
    int X[4];
    coarse.coords(Y, X);
    return colour(X);
  }

  // The same through the tables (set by AggregationTables::attach).
  LQCD_HOST_DEVICE std::int64_t fine_of(std::int64_t Y, int j) const { return block_fine[Y * block_sites + j]; }
  LQCD_HOST_DEVICE std::int64_t coarse_of(std::int64_t i) const { return fine_block[i]; }
  LQCD_HOST_DEVICE int local(std::int64_t i, int mu) const { return (fine_local[i] >> (8 * mu)) & 0xFF; }
  LQCD_HOST_DEVICE int colour_at(std::int64_t Y) const { return coarse_colour[Y]; }
  LQCD_HOST_DEVICE std::int64_t neighbour_at(std::int64_t Y, int mu, int dir) const {
    return coarse_neighbour[Y * 8 + 2 * mu + (dir < 0 ? 1 : 0)];
  }
};

// The tables of an Aggregation at one location (built on the host, copied there).
class AggregationTables {
 public:
  AggregationTables(const Aggregation& agg, Location loc);
  // The aggregation with its table pointers set to these tables.
  const Aggregation& aggregation() const { return agg_; }

 private:
  Buffer<std::int32_t> block_fine_, fine_block_, fine_local_, colour_, neighbour_;
  Aggregation agg_;
};

// Throws lqcd::Error naming `key` unless every extent of `block` is 2 to 255 and divides the matching
// extent of `lattice` at least twice (what Aggregation::make requires); a direction split over `grid`
// at least once (make_coarse's split level).
void check_aggregation_block(const Dims& lattice, const Dims& block, const std::string& key,
                             const std::string& lattice_name = "the lattice", const Dims& grid = {1, 1, 1, 1});

}  // namespace lqcd
