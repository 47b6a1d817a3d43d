#include "solvers/multigrid/schwarz_smoother.hpp"

#include "core/dispatch.hpp"
#include "core/environment_switch.hpp"
#include "core/error.hpp"
#include "fields/spinor_blas.hpp"
#include "solvers/multigrid/schwarz_block_mr.hpp"
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
      fused_(switch_from_environment("LQCD_SCHWARZ_FUSED", true)) {
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

// The blocks of `colour` solved with rho as their right-hand side, on the device by the fused kernel
// where it can (solvers/multigrid/schwarz_block_mr.hpp), else through solve_blocks.
template <typename Real>
void SchwarzSmoother<Real>::solve_colour(SpinorField<Real>& e, const SpinorField<Real>& rho, int colour) {
#if LQCD_HAVE_CUDA
  if (parts_ && fused_ && D_.location() == Location::Device &&
      schwarz_block_mr_on_device(SchwarzBlockMr<Real>{agg_, WilsonSiteOperator<Real>::of(*parts_), rho.view(),
                                                      e.view(), colour, block_iterations_}))
    return;
#endif
  for_each(D_.location(), rho.sites(), BlockMaskKernel<Real>{agg_, rho.view(), s_.view(), colour});
  solve_blocks(e, s_, colour);
}

template <typename Real>
int SchwarzSmoother<Real>::smooth(SpinorField<Real>& e, const SpinorField<Real>& r, int sweeps) {
  int applications = 0;
  set_zero(e);
  for (int sweep = 0; sweep < sweeps; ++sweep)
    for (int colour = 0; colour < 2; ++colour) {
      if (sweep == 0 && colour == 0) {
        rho_.copy_from(r);
      } else {  // rho = r - D e
        D_.apply(rho_, e);
        ++applications;
        xpay(r, Complex<double>(-1.0), rho_);
      }
      solve_colour(e, rho_, colour);
      applications += block_iterations_;
    }
  return applications;
}

template class SchwarzSmoother<double>;
template class SchwarzSmoother<float>;

}  // namespace lqcd
