#include "solvers/multigrid/coarse_schur.hpp"

#include <algorithm>
#include <type_traits>

#include <fmt/format.h>

#include "comm/communicator.hpp"
#include "core/dispatch.hpp"
#include "core/environment_switch.hpp"
#include "core/error.hpp"
#include "solvers/multigrid/coarse_hop_mma.hpp"
#include "solvers/multigrid/coarse_schur_kernels.hpp"

namespace lqcd {

template <typename Real>
bool CoarseSchurComplement<Real>::possible(const CoarseLattice& lattice) {
  for (int mu = 0; mu < 4; ++mu)
    if (lattice.n[mu] % 2 != 0) return false;
  return true;
}

template <typename Real>
CoarseSchurComplement<Real>::CoarseSchurComplement(const CoarseOperator<Real>& Dc, bool half)
    : Dc_(Dc),
      ahat_(std::size_t(kStencilDirections) * std::size_t(Dc.lattice().sites) * std::size_t(Dc.dof()) *
                std::size_t(Dc.dof()),
            Dc.location()),
      half_enabled_(half),
      half_(half ? std::size_t(kStencilDirections - 1) * std::size_t(Dc.lattice().sites) * std::size_t(Dc.dof()) *
                       std::size_t(Dc.dof())
                 : 0,
            Dc.location()),
      half_scale_(half ? std::size_t(kStencilDirections - 1) * std::size_t(Dc.lattice().sites) : 0, Dc.location()),
      mma_(switch_from_environment("LQCD_COARSE_MMA", false)),
      bhat_(Dc.make_field()),
      odd_(Dc.make_field()) {
  if (!possible(Dc.lattice()))
    fail("internal: the coarse even-odd form needs even coarse extents (got {})", dims_string(Dc.lattice().dims()));
  if (Dc.distributed() && half)
    fail("internal: the 16-bit coarse even-odd form of a coarse level split over processes");
}

template <typename Real>
void CoarseSchurComplement<Real>::update() {
  const Location loc = Dc_.location();
  const std::int64_t sites = Dc_.lattice().sites;
  const int dof = Dc_.dof();
  {
    const std::int64_t entries = sites * dof * dof;
    Buffer<Complex<double>> m(std::size_t(entries), loc);
    Buffer<int> pivot_row(std::size_t(sites * dof), loc), singular(std::size_t(sites), loc);
    const CoarseInverseWork w{m.data(), pivot_row.data(), singular.data(), dof};
    for_each(loc, entries, CoarseInverseCopyKernel<Real>{Dc_.view(), w});
    for (int k = 0; k < dof; ++k) {
      for_each(loc, sites, CoarseInversePivotKernel{w, k});
      for_each(loc, sites * dof, CoarseInverseEliminateKernel{w, k});
    }
    for_each(loc, sites * dof, CoarseInverseFinishKernel<Real>{w, view()});
    Buffer<int> host(std::size_t(sites), Location::Host);
    host.copy_from(singular);
    const int* flags = host.data();
    const std::int64_t first = std::find_if(flags, flags + sites, [](int f) { return f != 0; }) - flags;
    // A split level: every process throws where any has a singular block (none goes on to the next exchange).
    if (comm::max(Dc_.placement().grid, first < sites ? 1.0 : 0.0) > 0)
      fail("multigrid: the coarse operator's block of coarse site {} is singular (test vectors that vanish on "
           "its aggregate?); try other multigrid.test_vectors or multigrid.setup_iterations",
           first < sites ? fmt::format("{}", first) : "(on another process)");
  }
  for_each(loc, std::int64_t(kStencilDirections - 1) * sites * dof * dof, CoarseLeftInverseKernel<Real>{Dc_.view(), view()});
  if (half_enabled_) {
    for_each(loc, std::int64_t(kStencilDirections - 1) * sites, CoarseHalfScaleKernel<Real>{view(), half_view()});
    for_each(loc, std::int64_t(kStencilDirections - 1) * sites * dof * dof, CoarseHalfPackKernel<Real>{view(), half_view()});
  }
}

namespace {
// The field's components, its right-hand sides.
template <typename Real>
int rhs_of(const CoarseField<Real>&) {
  return 1;
}
template <typename Real>
int rhs_of(const CoarseBlockField<Real>& f) {
  return f.rhs();
}
}  // namespace

template <typename Real>
template <typename Field>
void CoarseSchurComplement<Real>::prepare_any(Field& rhs, const Field& b, Field& bhat) const {
  const int n = rhs_of(b);
  with_rhs_tile(n, [&](auto tile) {
    constexpr int T = decltype(tile)::value;
    for_each(Dc_.location(), rhs_tile_threads(Dc_.lattice().sites, Dc_.dof(), n, T),
             CoarseSelfInverseApplyKernel<Real, T>{view(), b.view().data, bhat.view().data, n});
  });
  // The even sites' neighbours are odd: H-hat_eo b-hat reads b-hat_o only.
  pass(CoarseHopRows<Real>{view()}, bhat.view().data, bhat.view().data, rhs.view().data, rhs.size(), n, 0, -1.0, true);
}

template <typename Real>
void CoarseSchurComplement<Real>::prepare(CoarseField<Real>& rhs, const CoarseField<Real>& b) {
  prepare_any(rhs, b, bhat_);
}

template <typename Real>
void CoarseSchurComplement<Real>::prepare(CoarseBlockField<Real>& rhs, const CoarseBlockField<Real>& b) {
  ensure_block(b.rhs());
  prepare_any(rhs, b, *bhat_block_);
}

// One parity pass: out = x + sign H-hat in on the sites of `parity` (CoarseParityHopKernel).
template <typename Real>
template <typename Rows>
void CoarseSchurComplement<Real>::pass(const Rows& rows, const Complex<Real>* in, const Complex<Real>* x,
                                       Complex<Real>* out, std::int64_t size, int n, int parity, double sign,
                                       bool zero_other) const {
  if (size != Dc_.lattice().sites * Dc_.dof() * n) fail("internal: a coarse parity pass over a field of another shape");
  if (const CoarseHalo* halo = Dc_.halo()) {
    // A split level (one field, blocks in Real): the faces of `in` first, then the hops across the
    // boundaries from them.
    if (n != 1 || !std::is_same_v<Rows, CoarseHopRows<Real>>)
      fail("internal: a block or 16-bit parity pass on a coarse level split over processes");
    halo->exchange(in, Dc_.dof(), Dc_.location(), halo_send_, halo_ghost_);
    for_each(Dc_.location(), rhs_tile_threads(Dc_.lattice().sites / 2, Dc_.dof(), 1, 1),
             CoarseParityHopKernel<Real, CoarseHaloHopRows<Real>, 1>{
                 CoarseHaloHopRows<Real>{view(), halo->layout(), halo_ghost_.data()}, in, x, out, parity, Real(sign),
                 zero_other ? 1 : 0, 1});
    return;
  }
#if LQCD_HAVE_CUDA
  if constexpr (std::is_same_v<Rows, CoarseHalfHopRows<float>>)
    if (mma_ && Dc_.location() == Location::Device &&
        coarse_hop_mma_on_device(CoarseHopMmaPass{rows.H, in, x, out, parity, float(sign), zero_other ? 1 : 0, n}))
      return;
#endif
  with_rhs_tile(n, [&](auto tile) {
    constexpr int T = decltype(tile)::value;
    for_each(Dc_.location(), rhs_tile_threads(Dc_.lattice().sites / 2, Dc_.dof(), n, T),
             CoarseParityHopKernel<Real, Rows, T>{rows, in, x, out, parity, Real(sign), zero_other ? 1 : 0, n});
  });
}

template <typename Real>
template <typename Field>
void CoarseSchurComplement<Real>::apply_any(Field& out, const Field& in, Field& odd) const {
  // odd = H-hat_oe in_e, then out_e = in_e - H-hat_eo odd_o, out_o = 0.
  const int n = rhs_of(in);
  with_hop_rows([&](const auto& rows) {
    pass(rows, in.view().data, nullptr, odd.view().data, odd.size(), n, 1, 1.0, false);
    pass(rows, odd.view().data, in.view().data, out.view().data, out.size(), n, 0, -1.0, true);
  });
}

template <typename Real>
void CoarseSchurComplement<Real>::apply(CoarseField<Real>& out, const CoarseField<Real>& in) const {
  apply_any(out, in, odd_);
}

template <typename Real>
void CoarseSchurComplement<Real>::apply(CoarseBlockField<Real>& out, const CoarseBlockField<Real>& in) const {
  ensure_block(in.rhs());
  apply_any(out, in, *odd_block_);
}

template <typename Real>
void CoarseSchurComplement<Real>::reconstruct(CoarseField<Real>& x) const {
  pass(CoarseHopRows<Real>{view()}, x.view().data, bhat_.view().data, x.view().data, x.size(), 1, 1, -1.0, false);
}

template <typename Real>
void CoarseSchurComplement<Real>::reconstruct(CoarseBlockField<Real>& x) const {
  ensure_block(x.rhs());
  pass(CoarseHopRows<Real>{view()}, x.view().data, bhat_block_->view().data, x.view().data, x.size(), x.rhs(), 1, -1.0,
       false);
}

template <typename Real>
void CoarseSchurComplement<Real>::apply_full(CoarseBlockField<Real>& out, const CoarseBlockField<Real>& in) const {
  const int n = in.rhs();
  if (out.rhs() != n) fail("internal: a coarse block of {} right-hand sides applied into one of {}", n, out.rhs());
  ensure_block(n);
  CoarseBlockField<Real>& sum = *odd_block_;  // in + H-hat in on both parities
  with_hop_rows([&](const auto& rows) {
    for (int parity = 0; parity < 2; ++parity)
      pass(rows, in.view().data, in.view().data, sum.view().data, sum.size(), n, parity, 1.0, false);
  });
  with_rhs_tile(n, [&](auto tile) {  // A_0 is block 0 of D_c's own view
    constexpr int T = decltype(tile)::value;
    for_each(Dc_.location(), rhs_tile_threads(Dc_.lattice().sites, Dc_.dof(), n, T),
             CoarseSelfInverseApplyKernel<Real, T>{Dc_.view(), sum.view().data, out.view().data, n});
  });
}

template <typename Real>
void CoarseSchurComplement<Real>::ensure_block(int rhs) const {
  if (bhat_block_ && bhat_block_->rhs() == rhs) return;
  bhat_block_ = std::make_unique<CoarseBlockField<Real>>(Dc_.lattice(), Dc_.dof(), rhs, Dc_.location());
  odd_block_ = std::make_unique<CoarseBlockField<Real>>(Dc_.lattice(), Dc_.dof(), rhs, Dc_.location());
}

template class CoarseSchurComplement<double>;
template class CoarseSchurComplement<float>;

}  // namespace lqcd
