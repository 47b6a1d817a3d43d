#include "solvers/multigrid/transfer_operator.hpp"

#include <type_traits>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "fields/random_spinor_kernels.hpp"
#include "solvers/multigrid/block_orthonormalisation.hpp"
#include "solvers/multigrid/coarse_links_kernels.hpp"
#include "solvers/multigrid/transfer_block_kernels.hpp"

namespace lqcd {

template <typename Real>
TransferOperator<Real>::TransferOperator(const Geometry& fine, const Dims& block, int test_vectors, Location loc,
                                         const std::string& key)
    : fine_(fine),
      tables_(Aggregation::make(fine, block, key), loc),
      agg_(tables_.aggregation()),
      nv_(test_vectors),
      v_() {
  if (test_vectors < 1) fail("multigrid.test_vectors = {}: at least 1 test vector is needed", test_vectors);
  v_ = Buffer<Complex<Real>>(std::size_t(fine.volume()) * 12 * std::size_t(test_vectors), loc);
}

template <typename Real>
void TransferOperator<Real>::check_fine(const SpinorField<Real>& f) const {
  if (f.subset() != Subset::Full || !(f.geometry() == fine_) || f.location() != location())
    fail("internal: multigrid transfer on a field that is not a full field of its fine lattice and location");
}

template <typename Real>
void TransferOperator<Real>::set_vector(int k, const SpinorField<Real>& v) {
  check_fine(v);
  for_each(location(), v.sites(), SetTestVectorKernel<Real>{vectors(), v.view(), k});
}

template <typename Real>
void TransferOperator<Real>::get_vector(int k, SpinorField<Real>& v) const {
  check_fine(v);
  for_each(location(), v.sites(), GetTestVectorKernel<Real>{vectors(), v.view(), k});
}

template <typename Real>
void TransferOperator<Real>::random_field(SpinorField<Real>& v, std::uint64_t seed, int k) const {
  check_fine(v);
  for_each(location(), v.sites(), GaussianSpinorKernel<Real>{v.view(), seed, RngPurpose::MultigridSetup, std::uint32_t(k), 0, 1.0});
}

template <typename Real>
void TransferOperator<Real>::orthonormalise() {
  block_orthonormalise(location(), agg_, BlockRows<Real>{v_.data(), nv_, 6});
  pack_half_vectors();
}

template <typename Real>
void TransferOperator<Real>::pack_half_vectors() {
  if constexpr (std::is_same_v<Real, float>) {
    if (v_half_.size() == 0) return;
    for_each(location(), std::int64_t(v_half_scale_.size()), HalfTestVectorScaleKernel{vectors(), half_vectors()});
    for_each(location(), std::int64_t(v_half_.size()), HalfTestVectorPackKernel{vectors(), half_vectors()});
  }
}

template <typename Real>
void TransferOperator<Real>::use_half_vectors(bool on) {
  if (on && !std::is_same_v<Real, float>)
    fail("multigrid.transfer_half: 16-bit test vectors need the single-precision cycle");
  v_half_ = Buffer<Complex<std::int16_t>>(on ? v_.size() : 0, location());
  v_half_scale_ = Buffer<float>(on ? std::size_t(fine_.volume()) * 2 : 0, location());
  pack_half_vectors();
}

template <typename Real>
template <typename F>
void TransferOperator<Real>::with_transfer_vectors(F&& f) const {
  if constexpr (std::is_same_v<Real, float>) {
    if (v_half_.size() != 0) return f(half_vectors());
  }
  f(vectors());
}

// The single-field transfers are the block ones with one field (with_rhs_tile then takes the tile of one):
// a coarse field is a coarse block one column wide (the same layout), and the prolongation's thread per
// site and pair of spin-colour rows reads the test vectors in runs that consecutive threads continue, where
// a thread per site read its 12 runs 2.3 kB apart from its neighbours' (issue 46: the HMC's force solves and
// single solves are one field at a time).
namespace {
template <typename Real>
CoarseBlockView<Real> one_column(const CoarseField<Real>& c) {
  const CoarseView<Real> v = c.view();
  return {v.data, v.sites, v.dof, 1};
}

// The fields fine[0 .. n) of a transfer, each checked by `check` (TransferOperator::check_fine).
template <typename Real, typename Field, typename Check>
SpinorFieldsView<Real> fields_view(Field* const* fine, std::size_t n, const Check& check) {
  SpinorFieldsView<Real> v{fine[0]->view(), {}, int(n)};
  for (std::size_t j = 0; j < n; ++j) {
    check(*fine[j]);
    v.data[j] = fine[j]->view().data;
  }
  return v;
}
}  // namespace

template <typename Real>
void TransferOperator<Real>::prolong(SpinorField<Real>& fine, const CoarseField<Real>& coarse) const {
  prolong_one(fine, coarse, false);
}

template <typename Real>
void TransferOperator<Real>::prolong_add(SpinorField<Real>& fine, const CoarseField<Real>& coarse) const {
  prolong_one(fine, coarse, true);
}

template <typename Real>
void TransferOperator<Real>::prolong_one(SpinorField<Real>& fine, const CoarseField<Real>& coarse, bool add) const {
  SpinorField<Real>* const one[] = {&fine};
  prolong_fields(fields_view<Real>(one, 1, [this](const SpinorField<Real>& x) { check_fine(x); }), one_column(coarse),
                 add);
}

template <typename Real>
void TransferOperator<Real>::restrict_to(CoarseField<Real>& coarse, const SpinorField<Real>& fine) const {
  const SpinorField<Real>* const one[] = {&fine};
  restrict_fields(one_column(coarse), fields_view<Real>(one, 1, [this](const SpinorField<Real>& x) { check_fine(x); }));
}

template <typename Real>
void TransferOperator<Real>::check_block(std::size_t fields, const CoarseBlockField<Real>& coarse) const {
  if (fields == 0 || fields > std::size_t(coarse.rhs()) || fields > std::size_t(kMaxCoarseBlockRhs) ||
      coarse.dof() != coarse_dof() || coarse.sites() != agg_.coarse.sites || coarse.location() != location())
    fail("internal: a block multigrid transfer of {} fields with a coarse block of another shape", fields);
}

template <typename Real>
void TransferOperator<Real>::restrict_block(CoarseBlockField<Real>& coarse,
                                            const std::vector<const SpinorField<Real>*>& fine) const {
  check_block(fine.size(), coarse);
  restrict_fields(coarse.view(),
                  fields_view<Real>(fine.data(), fine.size(), [this](const SpinorField<Real>& x) { check_fine(x); }));
}

template <typename Real>
void TransferOperator<Real>::prolong_block(const std::vector<SpinorField<Real>*>& fine,
                                           const CoarseBlockField<Real>& coarse, bool add) const {
  check_block(fine.size(), coarse);
  prolong_fields(fields_view<Real>(fine.data(), fine.size(), [this](const SpinorField<Real>& x) { check_fine(x); }),
                 coarse.view(), add);
}

template <typename Real>
void TransferOperator<Real>::restrict_fields(const CoarseBlockView<Real>& coarse, const SpinorFieldsView<Real>& f) const {
  with_rhs_tile(f.n, [&](auto tile) {
    constexpr int T = decltype(tile)::value;
    with_transfer_vectors([&](auto V) {
      for_each(location(), rhs_tile_threads(agg_.coarse.sites, coarse_dof(), f.n, T),
               RestrictBlockKernel<Real, T, decltype(V)>{agg_, V, f, coarse});
    });
  });
}

template <typename Real>
void TransferOperator<Real>::prolong_fields(const SpinorFieldsView<Real>& f, const CoarseBlockView<Real>& coarse,
                                            bool add) const {
  const std::int64_t sites = fine_.volume();
  with_rhs_tile(f.n, [&](auto tile) {
    constexpr int T = decltype(tile)::value;
    with_transfer_vectors([&](auto V) {
      using Kernel = ProlongBlockKernel<Real, T, decltype(V)>;
      for_each(location(), sites * Kernel::kRows * rhs_tiles(f.n, T), Kernel{agg_, V, coarse, f, sites, add ? 1 : 0});
    });
  });
}

template <typename Real>
void TransferOperator<Real>::probe(SpinorField<Real>& out, int colour, int col) const {
  check_fine(out);
  for_each(location(), out.sites(), ProbeKernel<Real>{agg_, vectors(), out.view(), colour, col});
}

template <typename Real>
void TransferOperator<Real>::restrict_probe(const CoarseStencilView<Real>& A, const SpinorField<Real>& D_probe,
                                            int colour, int col, Buffer<Complex<Real>>& work) const {
  check_fine(D_probe);
  const ProbeGeometry g{agg_, colour};
  for_each(location(), D_probe.sites() * A.dof,
           ProbeProjectKernel<Real>{g, vectors(), D_probe.view(), work.data(), A.dof});
  for_each(location(), A.lattice.sites * A.dof, ProbeSumKernel<Real>{g, work.data(), A, col});
}

template <typename Real>
void TransferOperator<Real>::hopping_blocks(const CoarseStencilView<Real>& A, const WilsonHoppingPart<Real>& H) const {
  if (H.links == nullptr || !(H.links->geometry() == fine_) || H.links->location() != location())
    fail("internal: coarse blocks from links of another lattice or location");
  const CoarseHoppingKernel<Real> k{agg_, vectors(), H.links->view(), H.boundary, H.alpha, A};
  for_each(location(), k.threads(), k);
}

template <typename Real>
void TransferOperator<Real>::self_block_from_restriction(const CoarseStencilView<Real>& A, const CoarseField<Real>& c,
                                                         int col) const {
  for_each(location(), c.size(), CoarseSelfBlockKernel<Real>{A, c.view().data, col});
}

template class TransferOperator<double>;
template class TransferOperator<float>;

}  // namespace lqcd
