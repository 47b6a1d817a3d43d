#pragma once
// The lexicographic (file) order of the whole lattice vs this process's part of it: files and tests see
// the global lattice, fields hold the local box. `per_site` values of type T per site, x fastest.

#include <cstdint>
#include <vector>

#include "comm/communicator.hpp"
#include "core/geometry.hpp"

namespace lqcd {

namespace detail {

// The global lexicographic index of site i (lexicographic in the local box) of the process at `offset`.
// Any extents (a multigrid coarse level's may be odd or 1), hence no SiteIndexer.
inline std::uint64_t global_lex_of(std::int64_t i, const Geometry& g, const Dims& offset) {
  const int n[4] = {g.local[0], g.local[1], g.local[2], g.local[3]};
  int x[4];
  lexicographic_coords(i, n, x);
  std::uint64_t j = 0;
  for (int mu = 3; mu >= 0; --mu) j = j * std::uint64_t(g.global[std::size_t(mu)]) + std::uint64_t(x[mu] + offset[std::size_t(mu)]);
  return j;
}

}  // namespace detail

// The values of this process's sites, taken from the global lattice (no communication).
template <typename T>
std::vector<T> local_part(const std::vector<T>& global, const Geometry& g, int per_site) {
  std::vector<T> local(std::size_t(g.volume()) * std::size_t(per_site));
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < g.volume(); ++i) {
    const std::uint64_t j = detail::global_lex_of(i, g, g.offset);
    for (int k = 0; k < per_site; ++k) local[std::size_t(i) * per_site + k] = global[j * per_site + k];
  }
  return local;
}

namespace detail {

// The global lattice from the parts of every rank, `all` holding them in rank order.
template <typename T>
std::vector<T> assemble_global(const std::vector<T>& all, const Geometry& g, int per_site) {
  const std::size_t n = std::size_t(g.volume()) * std::size_t(per_site);
  std::vector<T> global(std::size_t(g.global_volume()) * std::size_t(per_site));
  for (int r = 0; r < g.processes(); ++r) {
    Dims offset{};
    int rest = r;
    for (std::size_t mu = 0; mu < 4; ++mu) {
      offset[mu] = (rest % g.grid[mu]) * g.local[mu];
      rest /= g.grid[mu];
    }
    const T* part = all.data() + std::size_t(r) * n;
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < g.volume(); ++i) {
      const std::uint64_t j = global_lex_of(i, g, offset);
      for (int k = 0; k < per_site; ++k) global[j * per_site + k] = part[std::size_t(i) * per_site + k];
    }
  }
  return global;
}

}  // namespace detail

// The global lattice assembled from every process's part (collective: every rank gets all of it).
template <typename T>
std::vector<T> gather_global(const std::vector<T>& local, const Geometry& g, int per_site) {
  if (!g.distributed()) return local;
  std::vector<T> all(local.size() * std::size_t(g.processes()));
  comm::all_gather(local.data(), all.data(), local.size() * sizeof(T));
  return detail::assemble_global(all, g, per_site);
}

// The same assembled on rank 0 only (collective; the other ranks get an empty vector): for output that
// rank 0 alone writes, so that the other ranks never hold the whole lattice.
template <typename T>
std::vector<T> gather_global_on_root(const std::vector<T>& local, const Geometry& g, int per_site) {
  if (!g.distributed()) return local;
  const bool root = comm::rank() == 0;
  std::vector<T> all(root ? local.size() * std::size_t(g.processes()) : 0);
  comm::gather_to_root(local.data(), all.data(), local.size() * sizeof(T));
  return root ? detail::assemble_global(all, g, per_site) : std::vector<T>{};
}

}  // namespace lqcd
