#include "solvers/multigrid/schwarz_smoother.hpp"

#include <algorithm>

#include "core/dispatch.hpp"
#include "core/environment_switch.hpp"
#include "core/error.hpp"
#include "fields/spinor_blas.hpp"
#include "solvers/multigrid/schwarz_block_mr.hpp"
#include "solvers/multigrid/schwarz_colour_sweep.hpp"
#include "solvers/multigrid/schwarz_kernels.hpp"

namespace lqcd {

template <typename Real>
SchwarzSmoother<Real>::SchwarzSmoother(const LinearOperator<Real>& D, const Aggregation& agg, int block_iterations)
    : D_(D),
      parts_(D.hopping_part()),
      agg_(agg),
      block_iterations_(block_iterations),
      rho_(D.make_field()),
      s_(D.make_field()),
      t_(D.make_field()),
      w_(std::size_t(2 * D.geometry().volume()), D.location()),
      alpha_(std::size_t(agg.coarse.sites), D.location()),
      fused_(switch_from_environment("LQCD_SCHWARZ_FUSED", true)),
      sweep_(false),
      // Two sources per launch measured fastest on the H200 (docs/performance.md: smoother 3.07 s per block
      // solve of 12 against 3.30 s one at a time and 4.31 s four at a time, whose registers spill).
      fused_rhs_(integer_from_environment("LQCD_SCHWARZ_RHS", 1, kMaxSchwarzRhs, 2)) {
#if LQCD_HAVE_CUDA
  sweep_ = fused_ && parts_ && D.location() == Location::Device && !D.geometry().distributed() &&
           switch_from_environment("LQCD_SCHWARZ_SWEEP", true) &&
           schwarz_colour_sweep_fits<Real>(agg.block_sites, parts_->clover != nullptr);
#endif
  for (int mu = 0; mu < 4 && block_iterations > 0; ++mu)
    if (agg.coarse.n[mu] % 2 != 0)
      fail("multigrid.block: the Schwarz smoother colours the blocks red and black, which needs an even number of "
           "blocks in every direction (got {} blocks of the lattice); choose another block or smoother = \"mr\"",
           dims_string(agg.coarse.dims()));
}

template <typename Real>
void SchwarzSmoother<Real>::solve_blocks(SpinorField<Real>& e, SpinorField<Real>& s, int colour) {
  const Location loc = D_.location();
  const std::int64_t n = s.sites();
  for (int it = 0; it < block_iterations_; ++it) {
    if (parts_) {
      for_each(loc, n, SchwarzBlockOperatorKernel<Real>{agg_, WilsonSiteOperator<Real>::of(*parts_), s.view(),
                                                        t_.view(), w_.data(), colour});
    } else {
      D_.apply(t_, s);  // s vanishes off the blocks of `colour`: t on them is D_B s
      for_each(loc, n, BlockMrPartialKernel<Real>{agg_, t_.view(), s.view(), w_.data(), colour});
    }
    for_each(loc, agg_.coarse.sites, BlockMrStepKernel<Real>{agg_, w_.data(), alpha_.data(), colour});
    for_each(loc, n, BlockMrUpdateKernel<Real>{agg_, t_.view(), s.view(), e.view(), alpha_.data(), colour});
    // s stays on the blocks of `colour`: the update changed it there only, and t's values elsewhere
    // were never added (the update is masked).
  }
}

// The blocks of `colour` solved with rho[i] as their right-hand sides: on the device by the fused kernel
// where it can, up to fused_rhs_ sources a launch (solvers/multigrid/schwarz_block_mr.hpp), else through
// solve_blocks one source at a time.
template <typename Real>
void SchwarzSmoother<Real>::solve_colour(const std::vector<SpinorField<Real>*>& e,
                                         const std::vector<SpinorField<Real>*>& rho, int colour) {
  const std::size_t n = e.size();
  std::size_t done = 0;
#if LQCD_HAVE_CUDA
  if (parts_ && fused_ && D_.location() == Location::Device) {
    SchwarzBlockMr<Real> a{agg_, WilsonSiteOperator<Real>::of(*parts_), {}, {}, 0, colour, block_iterations_};
    while (done < n) {
      a.rhs = int(std::min<std::size_t>(std::size_t(fused_rhs_), n - done));
      for (int k = 0; k < a.rhs; ++k) {
        a.rho[k] = rho[done + std::size_t(k)]->view();
        a.e[k] = e[done + std::size_t(k)]->view();
      }
      if (!schwarz_block_mr_on_device(a)) {
        if (a.rhs == 1) break;  // the kernel cannot take these blocks at all
        fused_rhs_ = 1;         // their spinors for several sources exceed the shared memory
        continue;
      }
      done += std::size_t(a.rhs);
    }
  }
#endif
  for (; done < n; ++done) {
    for_each(D_.location(), rho[done]->sites(), BlockMaskKernel<Real>{agg_, rho[done]->view(), s_.view(), colour});
    solve_blocks(*e[done], s_, colour);
  }
}

template <typename Real>
int SchwarzSmoother<Real>::sources_per_launch() const {
  return sweep_ ? kMaxSweepSources : fused_rhs_;
}

template <typename Real>
void SchwarzSmoother<Real>::sweep_colour(const std::vector<SpinorField<Real>*>& e,
                                         const std::vector<const SpinorField<Real>*>& r, int colour, bool residual) {
#if LQCD_HAVE_CUDA
  SchwarzColourSweep<Real> a{agg_, WilsonSiteOperator<Real>::of(*parts_), {}, {}, 0, colour, block_iterations_,
                             residual ? 1 : 0};
  for (std::size_t done = 0; done < e.size(); done += std::size_t(a.rhs)) {
    a.rhs = int(std::min<std::size_t>(std::size_t(kMaxSweepSources), e.size() - done));
    for (int k = 0; k < a.rhs; ++k) {
      a.r[k] = r[done + std::size_t(k)]->view();
      a.e[k] = e[done + std::size_t(k)]->view();
    }
    if (!schwarz_colour_sweep_on_device(a))
      fail("internal: the Schwarz colour sweep does not take {} sources on blocks of {} sites", a.rhs, agg_.block_sites);
    ++colour_sweeps_;
  }
#else
  (void)e, (void)r, (void)colour, (void)residual;
#endif
}

template <typename Real>
void SchwarzSmoother<Real>::residual(SpinorField<Real>& rho, const SpinorField<Real>& r, const SpinorField<Real>& e,
                                     int colour) {
  if (parts_ && !D_.geometry().distributed()) {
    for_each(D_.location(), rho.sites(),
             BlockResidualKernel<Real>{agg_, WilsonSiteOperator<Real>::of(*parts_), r.view(), e.view(), rho.view(), colour});
    return;
  }
  D_.apply(rho, e);
  xpay(r, Complex<double>(-1.0), rho);
}

template <typename Real>
int SchwarzSmoother<Real>::smooth(const std::vector<SpinorField<Real>*>& e,
                                  const std::vector<const SpinorField<Real>*>& r,
                                  const std::vector<SpinorField<Real>*>& rho, int sweeps, bool from_guess) {
  if (e.size() != r.size() || (needs_work_fields() && rho.size() < e.size()))
    fail("internal: Schwarz smoother on {} fields from {} with {} work fields", e.size(), r.size(), rho.size());
  int applications = 0;
  if (!from_guess)
    for (SpinorField<Real>* f : e) set_zero(*f);
  for (int sweep = 0; sweep < sweeps; ++sweep)
    for (int colour = 0; colour < 2; ++colour) {
      const bool from_zero = sweep == 0 && colour == 0 && !from_guess;
      if (sweep_) {
        sweep_colour(e, r, colour, !from_zero);
        applications += ((from_zero ? 0 : 1) + block_iterations_) * int(e.size());  // residual, steps
        continue;
      }
      const std::vector<SpinorField<Real>*> work(rho.begin(), rho.begin() + std::ptrdiff_t(e.size()));
      for (std::size_t i = 0; i < e.size(); ++i) {
        if (from_zero) {
          work[i]->copy_from(*r[i]);  // r - D e with e = 0
        } else {
          residual(*work[i], *r[i], *e[i], colour);
          ++applications;
        }
      }
      solve_colour(e, work, colour);
      applications += block_iterations_ * int(e.size());
    }
  return applications;
}

template <typename Real>
int SchwarzSmoother<Real>::smooth(SpinorField<Real>& e, const SpinorField<Real>& r, int sweeps, bool from_guess) {
  return smooth(std::vector<SpinorField<Real>*>{&e}, std::vector<const SpinorField<Real>*>{&r},
                std::vector<SpinorField<Real>*>{&rho_}, sweeps, from_guess);
}

template class SchwarzSmoother<double>;
template class SchwarzSmoother<float>;

}  // namespace lqcd
