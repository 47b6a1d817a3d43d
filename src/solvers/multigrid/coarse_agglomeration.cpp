#include "solvers/multigrid/coarse_agglomeration.hpp"

#include <vector>

#include "core/error.hpp"
#include "fields/global_order.hpp"

namespace lqcd {

CoarseAgglomeration::CoarseAgglomeration(const Geometry& fine, const Aggregation& agg) {
  coarse_.grid = fine.grid;
  for (int mu = 0; mu < 4; ++mu) {
    const std::size_t m = std::size_t(mu);
    coarse_.local[m] = agg.coarse.n[mu];
    coarse_.global[m] = agg.coarse.n[mu] * fine.grid[m];
    coarse_.offset[m] = fine.offset[m] / agg.b[mu];
    if (fine.local[m] != agg.coarse.n[mu] * agg.b[mu] || fine.offset[m] % agg.b[mu] != 0)
      fail("internal: a multigrid aggregation that does not tile this process's part of the lattice");
  }
}

namespace {

// `count` elements of a buffer at `loc` as a host vector, and back.
template <typename T>
std::vector<T> to_host(const T* data, std::size_t count, Location loc) {
  std::vector<T> v(count);
  detail::copy_bytes(v.data(), Location::Host, data, loc, count * sizeof(T));
  return v;
}
template <typename T>
void from_host(T* data, Location loc, const std::vector<T>& v) {
  detail::copy_bytes(data, loc, v.data(), Location::Host, v.size() * sizeof(T));
}

}  // namespace

template <typename Real>
void CoarseAgglomeration::gather(CoarseField<Real>& whole, const CoarseField<Real>& part) const {
  if (whole.sites() != coarse_.global_volume() || part.sites() != coarse_.volume() || whole.dof() != part.dof())
    fail("internal: coarse fields of another shape gathered");
  if (!distributed()) {
    whole.copy_from(part);
    return;
  }
  const auto local = to_host(part.view().data, std::size_t(part.size()), part.location());
  from_host(whole.view().data, whole.location(), gather_global(local, coarse_, part.dof()));
}

template <typename Real>
void CoarseAgglomeration::scatter(CoarseField<Real>& part, const CoarseField<Real>& whole) const {
  if (whole.sites() != coarse_.global_volume() || part.sites() != coarse_.volume() || whole.dof() != part.dof())
    fail("internal: coarse fields of another shape scattered");
  if (!distributed()) {
    part.copy_from(whole);
    return;
  }
  const auto global = to_host(whole.view().data, std::size_t(whole.size()), whole.location());
  from_host(part.view().data, part.location(), local_part(global, coarse_, part.dof()));
}

template <typename Real>
void CoarseAgglomeration::gather(CoarseOperator<Real>& whole, const CoarseOperator<Real>& part) const {
  if (whole.lattice().sites != coarse_.global_volume() || part.lattice().sites != coarse_.volume() ||
      whole.dof() != part.dof() || whole.location() != part.location())
    fail("internal: coarse operators of another shape gathered");
  // The blocks are stored direction by direction, each direction's blocks site by site
  // (solvers/multigrid/coarse_operator_kernels.hpp): one gather per direction, dof^2 numbers per site.
  const int per_site = part.dof() * part.dof();
  const std::size_t n_part = std::size_t(part.lattice().sites) * std::size_t(per_site);
  const std::size_t n_whole = std::size_t(whole.lattice().sites) * std::size_t(per_site);
  for (int d = 0; d < kStencilDirections; ++d) {
    const auto local = to_host(part.view().a + std::size_t(d) * n_part, n_part, part.location());
    from_host(whole.view().a + std::size_t(d) * n_whole, whole.location(), gather_global(local, coarse_, per_site));
  }
}

template void CoarseAgglomeration::gather(CoarseField<double>&, const CoarseField<double>&) const;
template void CoarseAgglomeration::gather(CoarseField<float>&, const CoarseField<float>&) const;
template void CoarseAgglomeration::scatter(CoarseField<double>&, const CoarseField<double>&) const;
template void CoarseAgglomeration::scatter(CoarseField<float>&, const CoarseField<float>&) const;
template void CoarseAgglomeration::gather(CoarseOperator<double>&, const CoarseOperator<double>&) const;
template void CoarseAgglomeration::gather(CoarseOperator<float>&, const CoarseOperator<float>&) const;

}  // namespace lqcd
