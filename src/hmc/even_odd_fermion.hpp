#pragma once
// The pieces every even-odd Wilson-type fermion monomial is made of (two_flavour_monomial.hpp has the
// formulas): the Schur operator M_hat of a quark (Wilson, twisted mass, clover, twisted clover), the
// log |det A_oo| of its site term, and the force of -2 Re y^dag dM_hat x and of log |det A_oo|.

#include <memory>
#include <optional>

#include "core/memory.hpp"
#include <string>

#include "dirac/linear_operator.hpp"
#include "dirac/quark_time_boundary.hpp"
#include "dirac/wilson_operator.hpp"
#include "hmc/momentum_field.hpp"
#include "hmc/chronological_guess.hpp"
#include "hmc/monomial.hpp"
#include "solvers/solver.hpp"

namespace lqcd {

struct EvenOddQuark {
  EvenOddQuark() = default;
  EvenOddQuark(const WilsonParams& p, double c) : params(p), csw(c) {}

  WilsonParams params;  // kappa, mu, boundary phases
  double csw = 0;       // > 0: clover (twisted clover with mu)
  // openQCD's open boundary in time (dirac/quark_time_boundary.hpp; issue 50): the hops on U with the links
  // of the boundary slices cut (a copy the operator owns), the clover term from U itself with the identity on
  // the boundary slices and 2 kappa (c_F - 1) next to them. The forces follow: the hopping force on the cut
  // copy (no force on a cut link), the clover force without the boundary slices' insertions.
  QuarkTimeBoundary time{};
  // The clover term's field strength with its trace kept, (1/8)(Q - Q^dag), as openQCD and MILC define it
  // (dirac/clover_kernels.hpp); the clover force then keeps the trace of its insertion too.
  bool clover_trace_kept = false;

  // M_hat on U (the clover field computed for U).
  std::unique_ptr<SchurOperator<double>> schur(const GaugeField<double>& U) const;
  // The links M_hat's hops run on: U, or with open boundaries the cut copy M (= schur(U)) owns.
  const GaugeField<double>& hop_links(const SchurOperator<double>& M, const GaugeField<double>& U) const;
  // log |det A_oo| = sum_{x odd} log |det A(x)| of M (0 without clover: A is then constant).
  double log_det_odd(const SchurOperator<double>& M) const;
  // F += coef * d/dw [-2 Re y^dag dM_hat x] + det_coef * d/dw log |det A_oo| (y, x even-site fields).
  void add_force(const SchurOperator<double>& M, const GaugeField<double>& U, const SpinorField<double>& y,
                 const SpinorField<double>& x, double coef, double det_coef, MomentumField& F) const;

  // Work space of the clover force (six colour matrices per site), kept between calls.
  mutable std::shared_ptr<Buffer<Complex<double>>> planes;
};

// M_hat of a quark in the precision of the inner solves of mixed precision, Sloppy = float or Half, on
// its own copy of U's links with 12 reals each: the clover operator as CompressedCloverEvenOddOperator
// (clover blocks in single, A_oo^{-1} fused into the hopping kernel), the Wilson one as
// WilsonEvenOddOperator<Sloppy, 6>. M = q.schur(U). Holds what the operator refers to, so it is neither
// copied nor moved. LQCD_COMPRESSED_CLOVER=0 gives, in single precision, the clover operator as it was
// before (WilsonCloverEvenOddOperator<float> on 18-real links, A_oo^{-1} a pass of its own): the
// reference of the measurements in docs/performance.md.
template <typename Sloppy>
class SloppySchur {
 public:
  SloppySchur(const EvenOddQuark& q, const GaugeField<double>& U, const SchurOperator<double>& M);
  SloppySchur(const SloppySchur&) = delete;
  SloppySchur& operator=(const SloppySchur&) = delete;
  const SchurOperator<Sloppy>& op() const { return *op_; }

 private:
  std::optional<GaugeField<Sloppy, 6>> links_;   // Wilson
  std::optional<GaugeField<float>> links_18_;    // the reference clover form
  std::unique_ptr<SchurOperator<Sloppy>> op_;
};

// "wilson (kappa 0.156)", "twisted clover (kappa 0.137, mu 0.01, csw 1.76)", ... for logs.
std::string describe(const EvenOddQuark& q);

// Throws naming `who` when b holds NaN or Inf (what an unstable integration leaves in a source).
void check_finite_source(const SpinorField<double>& b, const std::string& who);

// X = (M^dag M)^{-1} b by CG on the normal operator, M = q.schur(U), from a zero guess or, with
// `forecast`, from its guess (and X is then recorded there); with p.precision = Single or Half the CG
// runs on SloppySchur's M_hat^dag M_hat, corrected in double to the same tolerance (solve_mixed). Adds
// the iterations and the time to `stats`. A solve that fails is a SolverError naming `who` (a force
// from an unconverged solve would be wrong: the trajectory is aborted instead).
SpinorField<double> solve_normal_equations(const EvenOddQuark& q, const GaugeField<double>& U,
                                           const SchurOperator<double>& M, const SpinorField<double>& b,
                                           const SolverParams& p, Monomial::SolverStats& stats, const std::string& who,
                                           ChronologicalGuess* forecast = nullptr);

}  // namespace lqcd
