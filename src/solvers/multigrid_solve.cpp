// The outer solve of the multigrid (solvers/multigrid.hpp, solve_multigrid): flexible GCR with the cycle
// as its preconditioner, for one right-hand side or N in lockstep (issue 46), in double or as defect
// correction around single-precision GCR cycles.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <type_traits>

#include "core/error.hpp"
#include "core/timer.hpp"
#include "fields/spinor_blas.hpp"
#include "solvers/multigrid.hpp"
#include "solvers/multigrid_support.hpp"

namespace lqcd {

namespace {
// The relative reduction a single-precision GCR cycle is asked for at most (float resolves about 1e-7).
constexpr double kSingleCycleFloor = 1e-5;

// The outer solve with a double-precision cycle: flexible GCR(outer_restart) in double, the N right-
// hand sides in lockstep.
std::vector<GcrOutcome> outer_double(const LinearOperator<double>& D, MultigridPreconditioner<double>& K,
                                     const std::vector<SpinorField<double>*>& x,
                                     const std::vector<const SpinorField<double>*>& b, const GcrControl& c,
                                     const std::function<void(int, int, double)>& record) {
  std::vector<GcrWorkspace<SpinorField<double>>> work;
  std::vector<GcrWorkspace<SpinorField<double>>*> wp;
  for (std::size_t i = 0; i < x.size(); ++i)
    work.emplace_back(*b[i], std::min(c.restart, std::max(1, c.max_iterations)), c.recycle);
  for (auto& w : work) wp.push_back(&w);
  const auto apply = [&D](SpinorField<double>& out, const SpinorField<double>& in) { D.apply(out, in); };
  const auto precondition = [&K](std::vector<SpinorField<double>*>& z, std::vector<const SpinorField<double>*>& r) {
    K.apply(z, r);
  };
  return flexible_gcr_lockstep(apply, precondition, x, b, c, wp, true, record);
}

// With a single-precision cycle: defect correction in double around cycles of flexible GCR(outer_restart)
// in single precision (the Krylov vectors in float: half the memory of a double GCR, so that N right-
// hand sides with GCR(16) fit one GPU; QUDA keeps its outer Krylov space in the sloppy precision too).
// Each cycle solves D_float e = r / ||r|| (r = b - D x in double, rounded) from e = 0 (or from its
// projection on the pairs kept from earlier cycles with outer_recycle: the workspace persists) for at most
// outer_restart iterations, or until its residual has dropped to what right-hand side i still needs
// (never below kSingleCycleFloor); then x += ||r|| e and r = b - D x in double, on which alone the
// tolerance is tested.
std::vector<GcrOutcome> outer_mixed(const LinearOperator<double>& D, MultigridPreconditioner<float>& K,
                                    const std::vector<SpinorField<double>*>& x,
                                    const std::vector<const SpinorField<double>*>& b, const GcrControl& c,
                                    const std::function<void(int, int, double)>& record) {
  const std::size_t n = x.size();
  const LinearOperator<float>& Ds = K.fine_operator();
  const int m = std::min(c.restart, std::max(1, c.max_iterations));
  std::vector<SpinorField<double>> r;
  std::vector<SpinorField<float>> r_s, e_s;
  std::vector<GcrWorkspace<SpinorField<float>>> work;
  for (std::size_t i = 0; i < n; ++i) {
    r.push_back(D.make_field());
    r_s.push_back(Ds.make_field());
    e_s.push_back(Ds.make_field());
  }
  for (std::size_t i = 0; i < n; ++i) work.emplace_back(r_s[i], m, c.recycle);  // recycled pairs kept across cycles
  SpinorField<double> e = D.make_field();
  std::vector<GcrOutcome> out(n);
  std::vector<double> bn(n), rn(n);
  std::vector<bool> done(n, false);
  // r = b - D x (x = 0: r = b); returns ||r||.
  const auto residual = [&](std::size_t i, bool zero) {
    r[i].copy_from(*b[i]);
    if (zero) return std::sqrt(norm2(r[i]));
    D.apply(e, *x[i]);
    return std::sqrt(axpy_norm2(Complex<double>(-1.0), e, r[i]));
  };
  for (std::size_t i = 0; i < n; ++i) {
    bn[i] = std::sqrt(norm2(*b[i]));
    if (c.zero_guess) set_zero(*x[i]);
    rn[i] = residual(i, c.zero_guess);
    out[i].true_residual = true;
    out[i].relative_residual = bn[i] > 0 ? rn[i] / bn[i] : 0.0;
    if (!(bn[i] > 0)) set_zero(*x[i]);
    done[i] = !(bn[i] > 0) || rn[i] <= c.tolerance * bn[i];
    out[i].converged = done[i];
  }
  const auto apply = [&Ds](SpinorField<float>& o, const SpinorField<float>& in) { Ds.apply(o, in); };
  const auto precondition = [&K](std::vector<SpinorField<float>*>& z, std::vector<const SpinorField<float>*>& rr) {
    K.apply(z, rr);
  };
  for (;;) {
    std::vector<std::size_t> act;
    for (std::size_t i = 0; i < n; ++i)
      if (!done[i]) act.push_back(i);
    if (act.empty()) break;
    std::vector<SpinorField<float>*> ep;
    std::vector<const SpinorField<float>*> rp;
    std::vector<GcrWorkspace<SpinorField<float>>*> wp;
    std::vector<double> tol;
    int left = c.max_iterations;
    for (const std::size_t i : act) {
      // The cycle solves for r / ||r||, whose float rounding is scale-free (no underflow near
      // convergence of a small source); r itself is recomputed after the cycle.
      scale(Complex<double>(1.0 / rn[i]), r[i]);
      convert_precision(r_s[i], r[i]);
      ep.push_back(&e_s[i]);
      rp.push_back(&r_s[i]);
      wp.push_back(&work[i]);
      tol.push_back(std::max(c.tolerance * bn[i] / rn[i], kSingleCycleFloor));
      left = std::min(left, c.max_iterations - out[i].iterations);
    }
    GcrControl ci = c;
    ci.zero_guess = true;
    ci.max_iterations = std::min(m, std::max(1, left));
    const auto each = [&](int j, int k, double rel) {
      const std::size_t i = act[std::size_t(j)];
      if (record) record(int(i), out[i].iterations + k, rel * rn[i] / bn[i]);
    };
    const std::vector<GcrOutcome> cycle = flexible_gcr_lockstep(apply, precondition, ep, rp, ci, wp, false, each, tol);
    for (std::size_t j = 0; j < act.size(); ++j) {
      const std::size_t i = act[j];
      GcrOutcome& o = out[i];
      o.iterations += cycle[j].iterations;
      convert_precision(e, e_s[i]);
      axpy(Complex<double>(rn[i]), e, *x[i]);
      const double before = rn[i];
      rn[i] = residual(i, false);
      o.relative_residual = rn[i] / bn[i];
      if (!std::isfinite(rn[i]) || (cycle[j].breakdown && !(rn[i] < before))) o.breakdown = true;
      o.converged = rn[i] <= c.tolerance * bn[i];
      done[i] = o.converged || o.breakdown || o.iterations >= c.max_iterations || cycle[j].iterations == 0;
    }
  }
  return out;
}

template <typename Sloppy>
std::vector<SolverResult> run_multigrid_solve(const LinearOperator<double>& D, MultigridPreconditioner<Sloppy>& K,
                                              const std::vector<SpinorField<double>*>& x,
                                              const std::vector<const SpinorField<double>*>& b, const SolverParams& p) {
  Stopwatch watch;
  const std::size_t n = x.size();
  if (n == 0 || b.size() != n) fail("internal: a multigrid solve of {} solutions for {} sources", n, b.size());
  const MultigridParams& mp = K.params();
  GcrControl c;
  c.tolerance = p.tolerance;
  c.max_iterations = p.max_iterations;
  c.restart = mp.outer_restart;
  c.recycle = mp.outer_recycle;
  std::vector<SolverResult> res(n);
  for (SolverResult& r : res) {
    r.type = SolverType::Multigrid;
    r.precision = std::is_same_v<Sloppy, double> ? SolverPrecision::Double : SolverPrecision::Single;
    r.residual_history.push_back(1.0);
  }
  // The initial guess is used where every x is nonzero (callers zero them).
  bool guess = true;
  for (std::size_t i = 0; i < n; ++i) guess = guess && norm2(*x[i]) > 0;
  c.zero_guess = !guess;
  // LQCD_MULTIGRID_TRACE set: every outer iteration of every right-hand side on stderr (its residual
  // estimate and the seconds since the solve began), to see which one stalls and where the time goes.
  const bool trace = std::getenv("LQCD_MULTIGRID_TRACE") != nullptr;
  const auto record = [&res, &watch, trace](int i, int k, double r) {
    res[std::size_t(i)].residual_history.push_back(r);
    if (trace) fmt::print(stderr, "multigrid: right-hand side {} iteration {} residual {:.3e} at {:.3f} s\n", i, k, r,
                          watch.seconds());
  };
  std::vector<GcrOutcome> o;
  if constexpr (std::is_same_v<Sloppy, double>)
    o = outer_double(D, K, x, b, c, record);
  else
    o = outer_mixed(D, K, x, b, c, record);
  synchronise(b[0]->location());
  const double seconds = watch.seconds();
  const double sites = double(b[0]->sites());
  for (std::size_t i = 0; i < n; ++i) {
    SolverResult& r = res[i];
    r.seconds = seconds;
    r.iterations = o[i].iterations;
    r.true_residual = o[i].relative_residual;
    r.converged = o[i].converged;
    // One cycle per outer iteration: its smoothing and residuals, plus the outer operator.
    r.set_flops(sites * D.flops_per_site() * double(o[i].iterations + 1) +
                sites * D.flops_per_site() * double(o[i].iterations) * double(mp.pre_smoothing + mp.post_smoothing + 1));
  }
  for (std::size_t i = 0; i < n; ++i)
    if (!o[i].converged)
      throw SolverError(fmt::format("multigrid: {}{} after {} outer iterations, true residual {:.3g} > tolerance {:.3g}; "
                                    "try more test_vectors or setup_iterations, or a smaller coarse_tolerance",
                                    o[i].breakdown ? "breakdown" : "no convergence",
                                    n > 1 ? fmt::format(" for right-hand side {} of {}", i, n) : std::string(),
                                    o[i].iterations, o[i].relative_residual, p.tolerance),
                        res[i]);
  return res;
}

}  // namespace

template <typename Sloppy>
SolverResult solve_multigrid(const LinearOperator<double>& D, MultigridPreconditioner<Sloppy>& K,
                             SpinorField<double>& x, const SpinorField<double>& b, const SolverParams& p) {
  SolverResult r;
  with_memory_advice(K.params(), [&] { r = run_multigrid_solve(D, K, {&x}, {&b}, p)[0]; });
  return r;
}

template <typename Sloppy>
std::vector<SolverResult> solve_multigrid(const LinearOperator<double>& D, MultigridPreconditioner<Sloppy>& K,
                                          const std::vector<SpinorField<double>*>& x,
                                          const std::vector<const SpinorField<double>*>& b, const SolverParams& p) {
  std::vector<SolverResult> r;
  with_memory_advice(K.params(), [&] { r = run_multigrid_solve(D, K, x, b, p); });
  return r;
}

#define LQCD_INSTANTIATE(Sloppy)                                                                                   \
  template SolverResult solve_multigrid<Sloppy>(const LinearOperator<double>&, MultigridPreconditioner<Sloppy>&,   \
                                                SpinorField<double>&, const SpinorField<double>&, const SolverParams&); \
  template std::vector<SolverResult> solve_multigrid<Sloppy>(                                                      \
      const LinearOperator<double>&, MultigridPreconditioner<Sloppy>&, const std::vector<SpinorField<double>*>&,    \
      const std::vector<const SpinorField<double>*>&, const SolverParams&);
LQCD_INSTANTIATE(double)
LQCD_INSTANTIATE(float)
#undef LQCD_INSTANTIATE

}  // namespace lqcd
