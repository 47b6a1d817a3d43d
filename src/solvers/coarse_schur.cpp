#include "solvers/coarse_schur.hpp"

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "solvers/coarse_schur_kernels.hpp"

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
      bhat_(Dc.make_field()),
      odd_(Dc.make_field()) {
  if (!possible(Dc.lattice()))
    fail("internal: the coarse even-odd form needs even coarse extents (got {})", dims_string(Dc.lattice().dims()));
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
    for (std::int64_t Y = 0; Y < sites; ++Y)
      if (host.data()[Y] != 0)
        fail("multigrid: the coarse operator's block of coarse site {} is singular (test vectors that vanish on "
             "its aggregate?); try other multigrid.test_vectors or multigrid.setup_iterations",
             Y);
  }
  for_each(loc, std::int64_t(kStencilDirections - 1) * sites * dof * dof, CoarseLeftInverseKernel<Real>{Dc_.view(), view()});
  if (half_enabled_) {
    for_each(loc, std::int64_t(kStencilDirections - 1) * sites, CoarseHalfScaleKernel<Real>{view(), half_view()});
    for_each(loc, std::int64_t(kStencilDirections - 1) * sites * dof * dof, CoarseHalfPackKernel<Real>{view(), half_view()});
  }
}

template <typename Real>
void CoarseSchurComplement<Real>::prepare(CoarseField<Real>& rhs, const CoarseField<Real>& b) {
  const Location loc = Dc_.location();
  for_each(loc, b.size(), CoarseSelfInverseApplyKernel<Real>{view(), b.view().data, bhat_.view().data});
  // The even sites' neighbours are odd: H-hat_eo b-hat reads b-hat_o only.
  pass(CoarseHopRows<Real>{view()}, bhat_, &bhat_, rhs, 0, -1.0, true);
}

// One parity pass: out = x + sign H-hat in on the sites of `parity` (CoarseParityHopKernel).
template <typename Real>
template <typename Rows>
void CoarseSchurComplement<Real>::pass(const Rows& rows, const CoarseField<Real>& in, const CoarseField<Real>* x,
                                       CoarseField<Real>& out, int parity, double sign, bool zero_other) const {
  for_each(Dc_.location(), out.size() / 2,
           CoarseParityHopKernel<Real, Rows>{rows, in.view().data, x ? x->view().data : nullptr, out.view().data, parity,
                                             Real(sign), zero_other ? 1 : 0});
}

template <typename Real>
void CoarseSchurComplement<Real>::apply(CoarseField<Real>& out, const CoarseField<Real>& in) const {
  // odd_ = H-hat_oe in_e, then out_e = in_e - H-hat_eo odd_o, out_o = 0.
  const auto both = [&](const auto& rows) {
    pass(rows, in, nullptr, odd_, 1, 1.0, false);
    pass(rows, odd_, &in, out, 0, -1.0, true);
  };
  if (half_enabled_)
    both(CoarseHalfHopRows<Real>{half_view()});
  else
    both(CoarseHopRows<Real>{view()});
}

template <typename Real>
void CoarseSchurComplement<Real>::reconstruct(CoarseField<Real>& x) const {
  pass(CoarseHopRows<Real>{view()}, x, &bhat_, x, 1, -1.0, false);
}

template class CoarseSchurComplement<double>;
template class CoarseSchurComplement<float>;

}  // namespace lqcd
