// The outer solve of the multigrid (solvers/multigrid/multigrid.hpp, solve_multigrid): flexible GCR with the cycle
// as its preconditioner, for one right-hand side or N in lockstep (issue 46), in double, or with a
// single-precision cycle as flexible GCR in double around single-precision GCR cycles.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <type_traits>

#include "core/error.hpp"
#include "core/timer.hpp"
#include "fields/spinor_blas.hpp"
#include "solvers/multigrid/multigrid.hpp"
#include "solvers/multigrid/multigrid_support.hpp"

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

// Plain defect correction, x += z with z = inner(b - D x), for every right-hand side until its true
// residual meets the tolerance or its inner iterations (`used`) reach the limit; each owns w[i].r for
// its residual (inner finds it there). outer_double_restart = 0: for comparison only (it stalls where
// the float operator misses D's lowest mode; tests/solvers/multigrid_precision_test.cpp).
template <typename Apply, typename Inner>
std::vector<GcrOutcome> defect_correction(const Apply& apply, const Inner& inner, const std::vector<SpinorField<double>*>& x,
                                          const std::vector<const SpinorField<double>*>& b, const GcrControl& c,
                                          std::vector<GcrWorkspace<SpinorField<double>>>& w, const std::vector<int>& used) {
  const std::size_t n = x.size();
  std::vector<GcrOutcome> out(n);
  std::vector<double> bn(n);
  for (std::size_t i = 0; i < n; ++i) {
    bn[i] = std::sqrt(norm2(*b[i]));
    if (c.zero_guess || !(bn[i] > 0)) set_zero(*x[i]);
  }
  for (;;) {
    std::vector<SpinorField<double>*> z;
    std::vector<const SpinorField<double>*> r;
    std::vector<std::size_t> who;
    for (std::size_t i = 0; i < n; ++i) {
      GcrOutcome& o = out[i];
      if (o.converged || o.breakdown || used[i] >= c.max_iterations) continue;
      SpinorField<double>& ri = w[i].r.at(0);
      apply(w[i].q[0], *x[i]);
      ri.copy_from(*b[i]);
      const double r2 = axpy_norm2(Complex<double>(-1.0), w[i].q[0], ri);
      o.true_residual = true;
      o.relative_residual = bn[i] > 0 ? std::sqrt(r2) / bn[i] : 0.0;
      o.converged = std::sqrt(r2) <= c.tolerance * bn[i];
      o.breakdown = !std::isfinite(r2);
      if (o.converged || o.breakdown) continue;
      z.push_back(&w[i].z[0]);
      r.push_back(&ri);
      who.push_back(i);
    }
    if (z.empty()) break;
    std::vector<int> before;
    for (const std::size_t i : who) before.push_back(used[i]);
    inner(z, r);
    for (std::size_t j = 0; j < who.size(); ++j) {
      const std::size_t i = who[j];
      axpy(Complex<double>(1.0), w[i].z[0], *x[i]);
      if (used[i] == before[j]) out[i].breakdown = true;  // an inner solve that did nothing: no progress
    }
  }
  for (std::size_t i = 0; i < n; ++i) out[i].iterations = used[i];
  return out;
}

// With a single-precision cycle: flexible GCR(outer_double_restart) in double whose preconditioner is a
// cycle of flexible GCR(outer_restart) in single precision around the multigrid cycles (the Krylov
// vectors of the inner GCR in float: half the memory of a double GCR, so that N right-hand sides with
// GCR(16) fit one GPU; QUDA keeps its outer Krylov space in the sloppy precision too). Each inner cycle
// solves D_float e = r / ||r|| (r the outer residual in double, rounded) from e = 0 (or from its
// projection on the pairs kept from earlier cycles with outer_recycle: the workspace persists) for at
// most outer_restart iterations, or until its residual has dropped to what right-hand side i still
// needs (never below kSingleCycleFloor); the outer GCR minimises ||b - D x|| in double over those
// corrections. Plain defect correction (x += ||r|| e) stalls where D's condition number approaches
// 1 / float epsilon (near the critical mass: the residual of a source with a large component on D's
// lowest mode stops near 4e-7, docs/history/2026-11.md, thirty-third session); the outer GCR resolves
// that mode in double. The iterations counted are the inner (multigrid cycle) ones.
std::vector<GcrOutcome> outer_mixed(const LinearOperator<double>& D, MultigridPreconditioner<float>& K,
                                    const std::vector<SpinorField<double>*>& x,
                                    const std::vector<const SpinorField<double>*>& b, const GcrControl& c,
                                    int outer_double_restart, const std::function<void(int, int, double)>& record) {
  const std::size_t n = x.size();
  const LinearOperator<float>& Ds = K.fine_operator();
  const int m = std::min(c.restart, std::max(1, c.max_iterations));
  std::vector<SpinorField<float>> r_s, e_s;
  std::vector<GcrWorkspace<SpinorField<float>>> work;
  std::vector<GcrWorkspace<SpinorField<double>>> outer;
  for (std::size_t i = 0; i < n; ++i) {
    r_s.push_back(Ds.make_field());
    e_s.push_back(Ds.make_field());
  }
  for (std::size_t i = 0; i < n; ++i) {
    work.emplace_back(r_s[i], m, c.recycle);  // recycled pairs kept across inner cycles
    outer.emplace_back(*b[i], std::max(1, outer_double_restart));
  }
  std::vector<double> bn(n);
  std::vector<int> used(n, 0);  // inner iterations
  for (std::size_t i = 0; i < n; ++i) bn[i] = std::sqrt(norm2(*b[i]));
  const auto apply = [&Ds](SpinorField<float>& o, const SpinorField<float>& in) { Ds.apply(o, in); };
  const auto cycle = [&K](std::vector<SpinorField<float>*>& z, std::vector<const SpinorField<float>*>& rr) {
    K.apply(z, rr);
  };
  // z_j = (float GCR cycles)^{-1} r_j for the listed outer residuals (right-hand side i owns outer[i].r).
  const auto inner = [&](std::vector<SpinorField<double>*>& z, std::vector<const SpinorField<double>*>& r) {
    std::vector<std::size_t> act;
    std::vector<SpinorField<float>*> ep;
    std::vector<const SpinorField<float>*> rp;
    std::vector<GcrWorkspace<SpinorField<float>>*> wp;
    std::vector<double> tol, rn;
    std::vector<std::size_t> slot;  // position in z / r
    int left = c.max_iterations;
    for (std::size_t j = 0; j < r.size(); ++j) {
      std::size_t i = 0;
      while (i < n && r[j] != &outer[i].r.at(0)) ++i;
      if (i == n) fail("internal: a multigrid outer residual of no right-hand side");
      const double norm = std::sqrt(norm2(*r[j]));
      if (used[i] >= c.max_iterations || !(norm > 0)) {  // its budget spent: no direction (ends its outer GCR)
        set_zero(*z[j]);
        continue;
      }
      // The cycle solves for r / ||r||, scaled in double (z_j as scratch, overwritten below) so that its
      // float rounding is scale-free: no underflow near convergence of a small source.
      z[j]->copy_from(*r[j]);
      scale(Complex<double>(1.0 / norm), *z[j]);
      convert_precision(r_s[i], *z[j]);
      act.push_back(i);
      slot.push_back(j);
      rn.push_back(norm);
      ep.push_back(&e_s[i]);
      rp.push_back(&r_s[i]);
      wp.push_back(&work[i]);
      tol.push_back(std::max(c.tolerance * bn[i] / norm, kSingleCycleFloor));
      left = std::min(left, c.max_iterations - used[i]);
    }
    if (act.empty()) return;
    GcrControl ci = c;
    ci.zero_guess = true;
    ci.max_iterations = std::min(m, std::max(1, left));
    const auto each = [&](int j, int k, double rel) {
      const std::size_t i = act[std::size_t(j)];
      if (record) record(int(i), used[i] + k, rel * rn[std::size_t(j)] / bn[i]);
    };
    const std::vector<GcrOutcome> done = flexible_gcr_lockstep(apply, cycle, ep, rp, ci, wp, false, each, tol);
    for (std::size_t j = 0; j < act.size(); ++j) {
      const std::size_t i = act[j];
      used[i] += done[j].iterations;
      SpinorField<double>& zj = *z[slot[j]];
      convert_precision(zj, e_s[i]);
      scale(Complex<double>(rn[j]), zj);
    }
  };
  const auto apply_double = [&D](SpinorField<double>& o, const SpinorField<double>& in) { D.apply(o, in); };
  if (outer_double_restart == 0) return defect_correction(apply_double, inner, x, b, c, outer, used);
  std::vector<GcrWorkspace<SpinorField<double>>*> op;
  for (auto& w : outer) op.push_back(&w);
  GcrControl co = c;
  co.restart = outer_double_restart;
  co.recycle = 0;
  std::vector<GcrOutcome> out = flexible_gcr_lockstep(apply_double, inner, x, b, co, op, true);
  for (std::size_t i = 0; i < n; ++i) {
    out[i].iterations = used[i];
    // A right-hand side whose budget ran out ends on a zero direction: at the limit, not a breakdown
    // (unless its residual is not finite).
    if (used[i] >= c.max_iterations && !out[i].converged && std::isfinite(out[i].relative_residual))
      out[i].breakdown = false;
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
  // estimate and the seconds since the solve began), to see which one stalls and where the time goes;
  // with the cycles and coarse iterations counted so far (all right-hand sides together), to see whether
  // the coarse solves sit at their cap.
  const bool trace = std::getenv("LQCD_MULTIGRID_TRACE") != nullptr;
  const auto record = [&res, &watch, &K, trace](int i, int k, double r) {
    res[std::size_t(i)].residual_history.push_back(r);
    if (trace)
      fmt::print(stderr, "multigrid: right-hand side {} iteration {} residual {:.3e} at {:.3f} s (cycles {}, coarse iterations {})\n",
                 i, k, r, watch.seconds(), K.timings().cycles, K.timings().coarse_iterations);
  };
  std::vector<GcrOutcome> o;
  if constexpr (std::is_same_v<Sloppy, double>)
    o = outer_double(D, K, x, b, c, record);
  else
    o = outer_mixed(D, K, x, b, c, mp.outer_double_restart, record);
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
