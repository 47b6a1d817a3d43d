// The multigrid cycle on N right-hand sides at once (issue 46; solvers/multigrid/multigrid.hpp): each field is
// pre-smoothed on its own and post-smoothed in groups whose Schwarz block solves share launches; the N
// fields are restricted together, the N coarse systems solved together by
// CoarseBlockGcr (even-odd where the coarse lattice allows, as the single cycle), and the N corrections
// prolonged together. The transfers then read the test vectors, and one coarse iteration the coarse
// operator, once for all N instead of N times, and the coarse launches and the wait for the residual
// norms are shared.
#include "solvers/multigrid/multigrid.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "solvers/multigrid/multigrid_support.hpp"

namespace lqcd {

template <typename Real>
void MultigridPreconditioner<Real>::make_block(int rhs) {
  if (block_gcr_ && block_gcr_->rhs() >= rhs) return;
  const CoarseLattice& L = coarse_.lattice();
  const int dof = coarse_.dof();
  const Location loc = D_.location();
  block_gcr_.reset();  // first and made last: a failed allocation leaves no block half made
  third_block_.reset();
  rc_block_ = std::make_unique<CoarseBlockField<Real>>(L, dof, rhs, loc);
  ec_block_ = std::make_unique<CoarseBlockField<Real>>(L, dof, rhs, loc);
  schur_rhs_block_ = std::make_unique<CoarseBlockField<Real>>(L, dof, rhs, loc);
  if (third_) {
    third_block_ = std::make_unique<ThirdLevelBlock<Real>>(*third_, *rc_block_, p_.coarse_restart);
    third_block_->gcr.set_deflation(third_->deflation.get());  // as the single cycle's third-level GCR
  }
  block_gcr_ = std::make_unique<CoarseBlockGcr<Real>>(*rc_block_, p_.coarse_restart);
  block_gcr_->set_deflation(deflation_.get());
}

template <typename Real>
void MultigridPreconditioner<Real>::release_block() {
  block_gcr_.reset();
  third_block_.reset();
  rc_block_.reset();
  ec_block_.reset();
  schur_rhs_block_.reset();
  res_block_.clear();
  post_block_.clear();
}

template <typename Real>
void MultigridPreconditioner<Real>::apply_coarse(CoarseBlockField<Real>& out, const CoarseBlockField<Real>& in) const {
  if (coarse_half_form_)
    coarse_half_form_->apply_full(out, in);
  else
    coarse_.apply(out, in);
}

// K_c on blocks (as coarse_cycle on one field): the N columns restricted to the third level, the N
// third-level systems solved together, the corrections prolonged, then MR steps on D_c for all N. The
// K-cycle's GCR needs Az = D_c z too: after MR steps it is r less their residual (to rounding), one
// application of D_c fewer per coarse iteration.
template <typename Real>
void MultigridPreconditioner<Real>::coarse_cycle(CoarseBlockField<Real>& z, CoarseBlockField<Real>& Az,
                                                 const CoarseBlockField<Real>& r) {
  ThirdLevel<Real>& L = *third_;
  ThirdLevelBlock<Real>& B = *third_block_;
  const Location loc = D_.location();
  {
    Section s(t_.coarsest, loc);
    L.transfer.restrict_to(B.r, r);
    if (L.direct) {
      L.direct->solve(B.e, B.r);
    } else {
      GcrControl c;
      c.tolerance = p_.coarsest_tolerance;
      c.max_iterations = p_.coarsest_max_iterations;
      c.restart = p_.coarse_restart;
      const std::vector<GcrOutcome> o = solve_block_system(B.gcr, L.op, L.schur.get(), B.schur_rhs, B.e, B.r, c);
      for (const GcrOutcome& oj : o) t_.coarsest_iterations += oj.iterations;
    }
    L.transfer.prolong(z, B.e);
  }
  if (p_.coarse_smoothing == 0) {
    apply_coarse(Az, z);
    return;
  }
  Section s(t_.coarse_smoothing, loc);  // as the single cycle: no waits for the device without MR steps
  B.smoother.minimal_residual_steps(
      [this](CoarseBlockField<Real>& out, const CoarseBlockField<Real>& in) { apply_coarse(out, in); }, z, r,
      p_.coarse_smoothing);
  for_each(loc, Az.size(),
           CoarseBlockDifferenceKernel<Real>{Az.view().data, r.view().data, B.smoother.residual().view().data});
}

template <typename Real>
void MultigridPreconditioner<Real>::apply(const std::vector<SpinorField<Real>*>& z,
                                          const std::vector<const SpinorField<Real>*>& r) {
  if (!ready_) fail("internal: multigrid cycle before setup()");
  if (z.size() != r.size()) fail("internal: a block multigrid cycle for {} fields from {}", z.size(), r.size());
  const int n = int(z.size());
  if (n == 1 || !coarse_blocks_possible() || n > kMaxCoarseBlockRhs) {
    for (int i = 0; i < n; ++i) apply(*z[std::size_t(i)], *r[std::size_t(i)]);
    return;
  }
  const Location loc = D_.location();
  make_block(n);
  CoarseBlockField<Real>& rc = *rc_block_;
  CoarseBlockField<Real>& ec = *ec_block_;
  {
    Section s(t_.transfer, loc);
    for_each(loc, rc.size(), CoarseBlockZeroKernel<Real>{rc.view().data});  // the columns beyond n stay 0
  }
  // Pre-smoothing one field at a time (each residual kept for the restriction), then the restriction of
  // all N at once (TransferOperator::restrict_block: the test vectors read once per tile of fields).
  std::vector<const SpinorField<Real>*> restricted(static_cast<std::size_t>(n));
  while (p_.pre_smoothing > 0 && int(res_block_.size()) < n) res_block_.push_back(transfer_.make_fine());
  for (int i = 0; i < n; ++i) {
    ++t_.cycles;
    restricted[std::size_t(i)] =
        &pre_smooth(*z[std::size_t(i)], *r[std::size_t(i)], p_.pre_smoothing > 0 ? res_block_[std::size_t(i)] : res_,
                    true);  // without pre-smoothing, prolong_block sets z
  }
  {
    Section s(t_.transfer, loc);
    transfer_.restrict_block(rc, restricted);
  }
  {
    Section s(t_.coarse_solve, loc);
    GcrControl c;
    c.tolerance = p_.coarse_tolerance;
    c.max_iterations = p_.coarse_max_iterations;
    c.restart = p_.coarse_restart;
    std::vector<GcrOutcome> o;
    if (third_)  // the K-cycle: flexible GCR on D_c preconditioned by K_c
      o = block_gcr_->solve_with_images(
          [this](CoarseBlockField<Real>& out, const CoarseBlockField<Real>& in) { apply_coarse(out, in); },
          [this](CoarseBlockField<Real>& zc, CoarseBlockField<Real>& qc, const CoarseBlockField<Real>& r2) {
            coarse_cycle(zc, qc, r2);
          },
          ec, rc, c);
    else
      o = solve_block_system(*block_gcr_, coarse_, schur_.get(), *schur_rhs_block_, ec, rc, c);
    for (int i = 0; i < n; ++i) t_.coarse_iterations += o[std::size_t(i)].iterations;
    ++t_.coarse_block_solves;
  }
  {
    Section s(t_.transfer, loc);
    transfer_.prolong_block(z, ec, p_.pre_smoothing > 0);  // without pre-smoothing z = P e_c, as z was 0
  }
  post_smooth(z, r);
}

// Each field as post_smooth does it (the Schwarz sweeps from z: z += S (r - D z)), in groups whose block
// solves share the Schwarz smoother's launches (SchwarzSmoother::sources_per_launch, schwarz_block_mr.hpp).
template <typename Real>
void MultigridPreconditioner<Real>::post_smooth(const std::vector<SpinorField<Real>*>& z,
                                                const std::vector<const SpinorField<Real>*>& r) {
  const std::size_t n = z.size();
  if (p_.post_smoothing == 0) return;
  if (p_.smoother != MultigridSmoother::Schwarz) {
    for (std::size_t i = 0; i < n; ++i) post_smooth(*z[i], *r[i]);
    return;
  }
  Section s(t_.smoother, D_.location());
  schwarz_from_guess(z, r, p_.post_smoothing);
}

template <typename Real>
void MultigridPreconditioner<Real>::schwarz_from_guess(const std::vector<SpinorField<Real>*>& z,
                                                       const std::vector<const SpinorField<Real>*>& r, int sweeps) {
  const std::size_t n = z.size();
  const std::size_t group = std::size_t(schwarz_.sources_per_launch());
  const bool work_fields = schwarz_.needs_work_fields();
  while (work_fields && post_block_.size() < group) post_block_.push_back(D_.make_field());
  for (std::size_t first = 0; first < n; first += group) {
    const std::size_t m = std::min(group, n - first);
    const std::vector<SpinorField<Real>*> zs(z.begin() + std::ptrdiff_t(first), z.begin() + std::ptrdiff_t(first + m));
    const std::vector<const SpinorField<Real>*> rs(r.begin() + std::ptrdiff_t(first),
                                                   r.begin() + std::ptrdiff_t(first + m));
    std::vector<SpinorField<Real>*> work;
    for (std::size_t k = 0; k < m && work_fields; ++k) work.push_back(&post_block_[k]);
    t_.fine_applications += schwarz_.smooth(zs, rs, work, sweeps, true);
  }
}

template void MultigridPreconditioner<double>::coarse_cycle(CoarseBlockField<double>&, CoarseBlockField<double>&,
                                                            const CoarseBlockField<double>&);
template void MultigridPreconditioner<float>::coarse_cycle(CoarseBlockField<float>&, CoarseBlockField<float>&,
                                                           const CoarseBlockField<float>&);
template void MultigridPreconditioner<double>::schwarz_from_guess(const std::vector<SpinorField<double>*>&,
                                                                  const std::vector<const SpinorField<double>*>&, int);
template void MultigridPreconditioner<float>::schwarz_from_guess(const std::vector<SpinorField<float>*>&,
                                                                 const std::vector<const SpinorField<float>*>&, int);
template void MultigridPreconditioner<double>::release_block();
template void MultigridPreconditioner<float>::release_block();
template void MultigridPreconditioner<double>::make_block(int);
template void MultigridPreconditioner<float>::make_block(int);
template void MultigridPreconditioner<double>::apply(const std::vector<SpinorField<double>*>&,
                                                     const std::vector<const SpinorField<double>*>&);
template void MultigridPreconditioner<float>::apply(const std::vector<SpinorField<float>*>&,
                                                    const std::vector<const SpinorField<float>*>&);

}  // namespace lqcd
