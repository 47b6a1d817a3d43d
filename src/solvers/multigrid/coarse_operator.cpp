#include "solvers/multigrid/coarse_operator.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

#include "core/dispatch.hpp"
#include "core/environment_switch.hpp"
#include "core/error.hpp"
#include "solvers/multigrid/coarse_apply_staged.hpp"

namespace lqcd {
namespace {
constexpr int kSelfBlockTile = 12;  // probe images restricted together (CoarseOperator::build_from_links),
constexpr double kSelfBlockBytes = 2.0 * (1 << 30);  // while they take at most this much memory
}  // namespace

int coarse_rhs_tile(int n) {
  static const int forced = [] {
    const int t = integer_from_environment("LQCD_COARSE_RHS_TILE", 1, 16, 0);
    for (int allowed : kRhsTiles)
      if (t == 0 || t == allowed) return t;
    fail("LQCD_COARSE_RHS_TILE: expected 1, 4, 8, 12 or 16, got {}", t);
  }();
  if (n <= 1) return 1;
  if (forced > 0) return forced;
  int best = 1;
  for (int T : kRhsTiles) {
    if (T == 1) continue;
    const int lanes = rhs_tiles(n, T) * T, best_lanes = rhs_tiles(n, best) * best;
    if (best == 1 || lanes < best_lanes || (lanes == best_lanes && T > best)) best = T;
  }
  return best;
}

template <typename Real>
CoarseOperator<Real>::CoarseOperator(const CoarseLattice& lattice, int dof, Location loc)
    : lattice_(lattice),
      dof_(dof),
      a_(std::size_t(kStencilDirections) * std::size_t(lattice.sites) * std::size_t(dof) * std::size_t(dof), loc) {}

template <typename Real>
CoarseOperator<Real>::CoarseOperator(const CoarseLattice& lattice, int dof, Location loc,
                                     std::shared_ptr<const CoarseHalo> halo)
    : CoarseOperator(lattice, dof, loc) {
  if (halo && halo->layout().lattice.sites != lattice.sites)
    fail("internal: a distributed coarse operator whose halo belongs to another lattice");
  halo_ = std::move(halo);
}

template <typename Real>
void CoarseOperator<Real>::refuse_if_distributed(const char* what) const {
  if (halo_) fail("internal: {} of a coarse operator split over processes (only D_c in is defined there)", what);
}

template <typename Real>
void CoarseOperator<Real>::check_shapes(const LinearOperator<Real>& D, const TransferOperator<Real>& T) const {
  if (T.coarse_dof() != dof_ || T.aggregation().coarse.sites != lattice_.sites || T.location() != location() ||
      D.subset() != Subset::Full || D.location() != location())
    fail("internal: a coarse operator built from a transfer or fine operator of another shape");
}

template <typename Real>
int CoarseOperator<Real>::build(const LinearOperator<Real>& D, const TransferOperator<Real>& T) {
  // From the links on one process; several need the neighbours' test vectors across the boundaries.
  return D.hopping_part() && !D.geometry().has_halo() ? build_from_links(D, T) : build_by_probing(D, T);
}

template <typename Real>
int CoarseOperator<Real>::build_from_links(const LinearOperator<Real>& D, const TransferOperator<Real>& T) {
  check_shapes(D, T);
  const std::optional<WilsonHoppingPart<Real>> H = D.hopping_part();
  if (!H || D.geometry().has_halo())
    fail("internal: a coarse operator from the links of an operator that has no hopping part or has halos");
  T.hopping_blocks(view(), *H);
  // The self blocks by probing, kSelfBlockTile columns restricted together: the block restriction reads
  // the test vectors once for all of them (one restriction per column read them 2 dof times a build:
  // 0.31 s of the 32^4 setup's 3.7 s on the H100), for that many fine fields more memory (fewer where
  // they would pass kSelfBlockBytes: 12 single-precision fields of 32^4 take 1.2 GB, of 64^4 19 GB).
  const double field_bytes = double(D.geometry().volume()) * double(spinor_site_bytes<Real>());
  const int tile = std::clamp(int(kSelfBlockBytes / field_bytes), 1, std::min(kSelfBlockTile, dof_));
  SpinorField<Real> probe = T.make_fine();
  std::vector<SpinorField<Real>> images;
  for (int k = 0; k < tile; ++k) images.push_back(T.make_fine());
  CoarseField<Real> c = make_field();
  for (int first = 0; first < dof_; first += tile) {
    const int m = std::min(tile, dof_ - first);
    std::vector<const SpinorField<Real>*> restricted;
    for (int k = 0; k < m; ++k) {
      T.probe(probe, kAllColours, first + k);
      D.apply(images[std::size_t(k)], probe);
      restricted.push_back(&images[std::size_t(k)]);
    }
    CoarseBlockField<Real> columns(lattice_, dof_, m, location());
    T.restrict_block(columns, restricted);
    for (int k = 0; k < m; ++k) {
      unpack_rhs(c, columns, k);
      T.self_block_from_restriction(view(), c, first + k);
    }
  }
  return dof_;
}

template <typename Real>
int CoarseOperator<Real>::build_by_probing(const LinearOperator<Real>& D, const TransferOperator<Real>& T) {
  check_shapes(D, T);
  SpinorField<Real> probe = T.make_fine(), image = T.make_fine();
  Buffer<Complex<Real>> work = T.make_probe_work();
  for (int colour = 0; colour < T.aggregation().colours; ++colour)
    for (int col = 0; col < dof_; ++col) {
      T.probe(probe, colour, col);
      D.apply(image, probe);
      T.restrict_probe(view(), image, colour, col, work);
    }
  return T.aggregation().colours * dof_;
}

template <typename Real>
void CoarseOperator<Real>::build_galerkin(const CoarseOperator<Real>& A, const CoarseTransferOperator<Real>& T) {
  refuse_if_distributed("a Galerkin product");  // (A may be: this then holds the rows of this process's sites)
  if (T.coarse_dof() != dof_ || T.aggregation().coarse.sites != lattice_.sites || T.fine_dof() != A.dof() ||
      T.aggregation().fine_volume != A.lattice().sites || T.location() != location() || A.location() != location())
    fail("internal: a coarse operator built from a transfer or finer operator of another shape");
  // A split finer level: its neighbours' test vectors on the faces, for the hops across the boundaries.
  const CoarseFaceLayout faces =
      A.halo_ ? A.halo_->layout() : CoarseFaceLayout::of(A.lattice(), Dims{1, 1, 1, 1});
  Buffer<Complex<Real>> send, ghost;
  if (A.halo_) A.halo_->exchange(T.vectors().v, A.dof() * T.test_vectors(), location(), send, ghost);
  // W holds one direction's A_f,e V at a time (fine sites x finer dof x dof_ entries).
  Buffer<Complex<Real>> W(std::size_t(A.lattice().sites) * std::size_t(A.dof()) * std::size_t(dof_), location());
  for (int e = 0; e < kStencilDirections; ++e) {
    for_each(location(), std::int64_t(W.size()),
             CoarseGalerkinHopKernel<Real>{T.vectors(), A.view(), W.data(), e, faces, ghost.data()});
    for_each(location(), std::int64_t(lattice_.sites) * dof_ * dof_,
             CoarseGalerkinBlockSumKernel<Real>{T.aggregation(), T.vectors(), A.view(), view(), W.data(), e, faces});
  }
}

template <typename Real>
void CoarseOperator<Real>::scale_twisted_mass(double factor) {
  if (factor != 1.0) for_each(location(), lattice_.sites, CoarseTwistScaleKernel<Real>{view(), factor});
}

template <typename Real>
void CoarseOperator<Real>::run(CoarseField<Real>& out, const CoarseField<Real>& in, int dagger) const {
  if (in.dof() != dof_ || out.dof() != dof_ || in.sites() != lattice_.sites || out.sites() != lattice_.sites ||
      in.location() != location() || out.location() != location())
    fail("internal: the coarse operator applied to a field of another shape");
  if (halo_) {
    if (dagger) refuse_if_distributed("D_c^dag");
    halo_->exchange(in, send_, ghost_);
    for_each(location(), out.size(),
             CoarseHaloApplyKernel<Real>{view(), halo_->layout(), in.view().data, ghost_.data(), out.view().data});
    return;
  }
  for_each(location(), out.size(), CoarseApplyKernel<Real>{view(), in.view(), out.view(), dagger});
}

template <typename Real>
void CoarseOperator<Real>::apply(CoarseField<Real>& out, const CoarseField<Real>& in) const {
  run(out, in, 0);
}
template <typename Real>
void CoarseOperator<Real>::apply_dagger(CoarseField<Real>& out, const CoarseField<Real>& in) const {
  run(out, in, 1);
}

template <typename Real>
void CoarseOperator<Real>::apply(CoarseBlockField<Real>& out, const CoarseBlockField<Real>& in) const {
  if (in.dof() != dof_ || out.dof() != dof_ || in.sites() != lattice_.sites || out.sites() != lattice_.sites ||
      in.rhs() != out.rhs() || in.location() != location() || out.location() != location())
    fail("internal: the coarse operator applied to a block of fields of another shape");
  refuse_if_distributed("a block application");
#if LQCD_HAVE_CUDA
  if constexpr (std::is_same_v<Real, float>)
    if (location() == Location::Device && in.rhs() > 1 && coarse_apply_staged_on_device(view(), in.view(), out.view()))
      return;
#endif
  with_rhs_tile(in.rhs(), [&](auto tile) {
    constexpr int T = decltype(tile)::value;
    for_each(location(), rhs_tile_threads(lattice_.sites, dof_, in.rhs(), T),
             CoarseApplyBlockKernel<Real, T>{view(), in.view(), out.view()});
  });
}

template class CoarseOperator<double>;
template class CoarseOperator<float>;

}  // namespace lqcd
