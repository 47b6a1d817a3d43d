#include "solvers/solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "solvers/krylov/krylov_detail.hpp"

namespace lqcd {

SolverType solver_type_from_name(const std::string& name, const std::string& key) {
  if (name == "cg") return SolverType::CG;
  if (name == "bicgstab") return SolverType::BiCGStab;
  if (name == "gcr") return SolverType::GCR;
  if (name == "multigrid") return SolverType::Multigrid;
  fail("{}: expected \"cg\", \"bicgstab\", \"gcr\" or \"multigrid\" (got \"{}\")", key, name);
}

std::string solver_type_name(SolverType type) {
  switch (type) {
    case SolverType::CG: return "cg";
    case SolverType::BiCGStab: return "bicgstab";
    case SolverType::GCR: return "gcr";
    case SolverType::Multigrid: return "multigrid";
  }
  return "unknown";
}

SolverPrecision solver_precision_from_name(const std::string& name, const std::string& key) {
  if (name == "double") return SolverPrecision::Double;
  if (name == "single") return SolverPrecision::Single;
  if (name == "half") return SolverPrecision::Half;
  fail("{}: expected \"double\", \"single\" or \"half\" (the last two: double-precision residuals with single- "
       "or half-precision inner solves; got \"{}\")",
       key, name);
}

std::string solver_precision_name(SolverPrecision precision) {
  switch (precision) {
    case SolverPrecision::Single: return "single";
    case SolverPrecision::Half: return "half";
    case SolverPrecision::Double: break;
  }
  return "double";
}

std::string SolverResult::summary() const {
  const std::string secs = seconds >= 0.01 ? fmt::format("{:.2f}", seconds) : fmt::format("{:.2g}", seconds);
  // The multigrid's outer solve is in double with the cycle in the lower precision: no corrections.
  const std::string mixed =
      precision == SolverPrecision::Double ? ""
      : type == SolverType::Multigrid      ? fmt::format(" (double/{} cycle)", solver_precision_name(precision))
                                           : fmt::format(" (double/{}, {} correction{})", solver_precision_name(precision),
                                                         corrections, corrections == 1 ? "" : "s");
  return fmt::format("{}{}: {} {} iteration{}, true residual {:.2g}, {} s, {:.1f} GFLOPS", solver_type_name(type), mixed,
                     converged ? "converged in" : "not converged after", iterations, iterations == 1 ? "" : "s",
                     true_residual, secs, gflops);
}

namespace solver_detail {

template <typename Real>
void Krylov<Real>::fail_limit() const {
  throw_error(fmt::format("{}: not converged in {} iterations (solver.max_iterations): true residual {:.2g}, "
                          "tolerance {:.2g}; raise solver.max_iterations, or kappa may be beyond critical",
                          name_, iterations_, true_rel_, p_.tolerance));
}

template <typename Real>
void Krylov<Real>::fail_nan() {
  true_rel_ = std::numeric_limits<double>::quiet_NaN();
  throw_error(fmt::format("{}: NaN/Inf in the residual at iteration {}; check the input fields (source, initial "
                          "guess, gauge links)",
                          name_, iterations_));
}

template <typename Real>
std::string Krylov<Real>::fmt_breakdown(const std::string& hint) const {
  return fmt::format("{}: breakdown at iteration {} ({}) after {} restarts without progress, true residual {:.2g}; {}",
                     name_, iterations_, breakdown_what_, kMaxBreakdownRestarts, true_rel_, hint);
}

template <typename Real>
std::string Krylov<Real>::fmt_stagnation() const {
  return fmt::format("{}: the true residual stagnates at {:.2g} above the tolerance {:.2g} (iteration {}) while "
                     "the iterated one falls below it; raise solver.tolerance (the operator's precision limits the "
                     "residual)",
                     name_, true_rel_, p_.tolerance, iterations_);
}

template class Krylov<double>;
template class Krylov<float>;
template class Krylov<Half>;

}  // namespace solver_detail

using solver_detail::check_params;
using solver_detail::fits;

template <typename Real>
SolverResult solve(const LinearOperator<Real>& M, SpinorField<Real>& x, const SpinorField<Real>& b,
                   const SolverParams& p) {
  check_params(p);
  if (p.precision != SolverPrecision::Double)
    fail("internal: solve: single-precision inner solves need the single-precision operator (solve_mixed)");
  if (!fits(M, x) || !fits(M, b))
    fail("internal: solve: the solution and source fields must have the operator's shape (M.make_field())");
  if (p.hermitian) {
    if (p.type != SolverType::CG) fail("internal: solve: a Hermitian system is solved by CG only");
    return solver_detail::solve_cg_hermitian(M, x, b, p);
  }
  switch (p.type) {
    case SolverType::CG: return solver_detail::solve_cg(M, x, b, p);
    case SolverType::BiCGStab: return solver_detail::solve_bicgstab(M, x, b, p);
    case SolverType::GCR: return solver_detail::solve_gcr(M, x, b, p);
    case SolverType::Multigrid: break;
  }
  fail("internal: solve: unknown solver type");
}

template SolverResult solve<double>(const LinearOperator<double>&, SpinorField<double>&, const SpinorField<double>&,
                                    const SolverParams&);
template SolverResult solve<float>(const LinearOperator<float>&, SpinorField<float>&, const SpinorField<float>&,
                                   const SolverParams&);
template SolverResult solve<Half>(const LinearOperator<Half>&, SpinorField<Half>&, const SpinorField<Half>&,
                                  const SolverParams&);

template <typename Real>
SolverResult solve_hermitian(const LinearOperator<Real>& A, SpinorField<Real>& x, const SpinorField<Real>& b,
                             const SolverParams& p) {
  check_params(p);
  if (!fits(A, x) || !fits(A, b))
    fail("internal: solve_hermitian: the solution and source fields must have the operator's shape");
  return solver_detail::solve_cg_hermitian(A, x, b, p);
}

template SolverResult solve_hermitian<double>(const LinearOperator<double>&, SpinorField<double>&,
                                              const SpinorField<double>&, const SolverParams&);
template SolverResult solve_hermitian<float>(const LinearOperator<float>&, SpinorField<float>&,
                                             const SpinorField<float>&, const SolverParams&);
template SolverResult solve_hermitian<Half>(const LinearOperator<Half>&, SpinorField<Half>&, const SpinorField<Half>&,
                                            const SolverParams&);

namespace {

// A + s (A Hermitian): the system of one shift.
template <typename Real>
class ShiftedOperator : public LinearOperator<Real> {
 public:
  ShiftedOperator(const LinearOperator<Real>& A, double shift) : A_(A), shift_(shift) {}
  void apply(SpinorField<Real>& out, const SpinorField<Real>& in) const override {
    A_.apply(out, in);
    axpy(Complex<double>(shift_), in, out);
  }
  void apply_dagger(SpinorField<Real>& out, const SpinorField<Real>& in) const override { apply(out, in); }
  Subset subset() const override { return A_.subset(); }
  const Geometry& geometry() const override { return A_.geometry(); }
  Location location() const override { return A_.location(); }
  double flops_per_site() const override { return A_.flops_per_site() + solver_detail::kAxpyFlops; }

 private:
  const LinearOperator<Real>& A_;
  double shift_;
};

void check_shifts(const std::vector<double>& shifts) {
  if (shifts.empty()) fail("internal: solve_multishift: no shift");
  for (double s : shifts)
    if (!(s >= 0) || !std::isfinite(s)) fail("internal: solve_multishift: shifts must be finite and non-negative");
}

// The scalar side of the multi-shift CG (Jegerlehner, hep-lat/9612014), shared by its plain and its
// reliable-update forms: the shifted systems' zeta_k, which of them are still active, and the base system
// k0 (a smallest shift, its zeta 1) whose direction drives the Krylov space.
struct MultishiftRecurrence {
  const std::vector<double>& shifts;
  double s0;
  std::size_t k0 = 0;
  std::vector<double> zeta, zeta_old, zeta_new;
  std::vector<bool> active;
  double alpha_old = 1, beta_old = 0;
  double tol2;  // tolerance^2 |b|^2

  MultishiftRecurrence(const std::vector<double>& s, double tolerance, double b2)
      : shifts(s), s0(*std::min_element(s.begin(), s.end())), zeta(s.size(), 1.0), zeta_old(s.size(), 1.0),
        zeta_new(s.size()), active(s.size(), true), tol2(tolerance * tolerance * b2) {
    while (shifts[k0] != s0) ++k0;
  }
  void check_iterations(const SolverResult& res, int max_iterations, double rr, double b2) const {
    if (res.iterations >= max_iterations)
      throw SolverError(fmt::format("multi-shift cg: not converged in {} iterations (solver.max_iterations): "
                                    "residual {:.2g} of the smallest shift",
                                    res.iterations, std::sqrt(rr / b2)),
                        res);
  }
  // zeta_new for the base step alpha; the step of system k is then alpha_k(k, alpha).
  void step(double alpha) {
    for (std::size_t k = 0; k < shifts.size(); ++k) {
      const double ds = shifts[k] - s0;
      zeta_new[k] = zeta[k] * zeta_old[k] * alpha_old /
                    (alpha * beta_old * (zeta_old[k] - zeta[k]) + zeta_old[k] * alpha_old * (1 + ds * alpha));
    }
  }
  double alpha_k(std::size_t k, double alpha) const { return alpha * zeta_new[k] / zeta[k]; }
  // Retires the systems whose residual zeta_k^2 |r|^2 meets the tolerance; whether any is left.
  bool any_active(double rr_new) {
    bool any = false;
    for (std::size_t k = 0; k < shifts.size(); ++k)
      if (active[k] && rr_new * zeta_new[k] * zeta_new[k] <= tol2) active[k] = false;
      else any = any || active[k];
    return any;
  }
  // Whether system k's direction is still updated (an active one, and the base).
  bool moves(std::size_t k) const { return active[k] || k == k0; }
  double beta_k(std::size_t k, double beta) const { return beta * (zeta_new[k] / zeta[k]) * (zeta_new[k] / zeta[k]); }
  void advance(double alpha, double beta) {
    zeta_old = zeta;
    zeta = zeta_new;
    alpha_old = alpha;
    beta_old = beta;
  }
};

// x <- n zero fields of A's shape: the multi-shift solutions' start.
template <typename Real>
void zero_solutions(const LinearOperator<Real>& A, std::size_t n, std::vector<SpinorField<Real>>& x) {
  x.clear();
  for (std::size_t k = 0; k < n; ++k) {
    x.push_back(A.make_field());
    set_zero(x.back());
  }
}

// The multi-shift CG iteration in the precision of A (Jegerlehner): x_k from zero until every shifted
// system's iterated residual meets `tolerance`; counts into res. Returns the operator applications.
template <typename Real>
double multishift_iterations(const LinearOperator<Real>& A, const std::vector<double>& shifts,
                             std::vector<SpinorField<Real>>& x, const SpinorField<Real>& b, double tolerance,
                             int max_iterations, SolverResult& res) {
  const std::size_t n = shifts.size();
  const double b2 = norm2(b);
  zero_solutions(A, n, x);
  double applications = 0;
  if (!(b2 > 0)) return applications;
  MultishiftRecurrence m(shifts, tolerance, b2);
  const ShiftedOperator<Real> base(A, m.s0);
  SpinorField<Real> r = b.clone(b.location()), w = A.make_field();
  std::vector<SpinorField<Real>> dir;
  for (std::size_t k = 0; k < n; ++k) dir.push_back(b.clone(b.location()));
  double rr = b2;
  for (;;) {
    m.check_iterations(res, max_iterations, rr, b2);
    base.apply(w, dir[m.k0]);
    ++applications;
    const double pw = dot(dir[m.k0], w).re;
    if (!(pw > 0)) throw SolverError("multi-shift cg: <p, (A + s) p> <= 0: the operator is not positive definite", res);
    const double alpha = rr / pw;
    m.step(alpha);
    for (std::size_t k = 0; k < n; ++k)
      if (m.active[k]) axpy(Complex<double>(m.alpha_k(k, alpha)), dir[k], x[k]);
    axpy(Complex<double>(-alpha), w, r);
    const double rr_new = norm2(r);
    ++res.iterations;
    res.residual_history.push_back(std::sqrt(rr_new / b2));
    if (!std::isfinite(rr_new)) throw SolverError("multi-shift cg: NaN/Inf in the residual", res);
    const double beta = rr_new / rr;
    if (!m.any_active(rr_new)) break;
    for (std::size_t k = 0; k < n; ++k) {
      if (!m.moves(k)) continue;
      scale(Complex<double>(m.beta_k(k, beta)), dir[k]);
      axpy(Complex<double>(m.zeta_new[k]), r, dir[k]);  // p_k = zeta_k r + beta_k p_k
    }
    m.advance(alpha, beta);
    rr = rr_new;
  }
  return applications;
}

// The multi-shift CG in A_sloppy's precision with reliable updates (the multi-shift form of G. L. G.
// Sleijpen, H. A. van der Vorst, Computing 56 (1996) 141, as in M. A. Clark et al., Comput. Phys. Commun. 181
// (2010) 1517, Sec. 5.3): the solutions x_k are accumulated in double, the iteration's own in sloppy
// accumulators flushed into them whenever the iterated residual has fallen by `delta` since the last
// update; then the base system's residual is recomputed in double, b - (A + s_0) x_0, and the iteration
// goes on from it (the shifted residuals stay zeta_k times it). So the true residuals follow the iterated
// ones below the sloppy precision's rounding floor (~3e-7 of |b| in single, where the plain sloppy
// multi-shift stops), and the refinement of each shift that follows has little left to do.
template <typename Sloppy>
double multishift_reliable_iterations(const LinearOperator<double>& A, const LinearOperator<Sloppy>& A_sloppy,
                                      const std::vector<double>& shifts, std::vector<SpinorField<double>>& x,
                                      const SpinorField<double>& b, double tolerance, double delta,
                                      int max_iterations, SolverResult& res) {
  const std::size_t n = shifts.size();
  const double b2 = norm2(b);
  zero_solutions(A, n, x);
  double applications = 0;
  if (!(b2 > 0)) return applications;
  MultishiftRecurrence m(shifts, tolerance, b2);
  const ShiftedOperator<Sloppy> base(A_sloppy, m.s0);
  const ShiftedOperator<double> base_double(A, m.s0);
  // The first stretch in double, until the residual has fallen below `wide_until`: the shifted systems'
  // rounding errors scale with the residual of the iterations that make them (their base residual is
  // recomputed, theirs not), and the sloppy stretches from a residual s on leave a drift of about s times
  // kSloppyDrift (2e-7 relative in single, measured: 4^3 x 8 clover, 12 shifts, from s = 1 and 0.1). So
  // s = tolerance / (2 kSloppyDrift), at most delta: the shifts meet the tolerance without refinement.
  constexpr double kSloppyDrift = 2e-7;
  const double wide_until = std::min(delta, tolerance / (2 * kSloppyDrift));
  bool wide = true;
  std::vector<SpinorField<double>> dir_wide;
  std::vector<SpinorField<Sloppy>> acc, dir;
  SpinorField<double> r_wide = b.clone(b.location()), w_wide = A.make_field(), widened = A.make_field();
  SpinorField<Sloppy> r = A_sloppy.make_field(), w = A_sloppy.make_field();
  for (std::size_t k = 0; k < n; ++k) dir_wide.push_back(b.clone(b.location()));
  const auto flush = [&] {  // x_k += acc_k (in double), acc_k = 0
    for (std::size_t k = 0; k < acc.size(); ++k) {
      convert_precision(widened, acc[k]);
      axpy(Complex<double>(1.0), widened, x[k]);
      set_zero(acc[k]);
    }
  };
  double rr = b2, rr_max = b2;
  for (;;) {
    m.check_iterations(res, max_iterations, rr, b2);
    double pw;
    if (wide) {
      base_double.apply(w_wide, dir_wide[m.k0]);
      pw = dot(dir_wide[m.k0], w_wide).re;
    } else {
      base.apply(w, dir[m.k0]);
      pw = dot(dir[m.k0], w).re;
    }
    ++applications;
    if (!(pw > 0)) throw SolverError("multi-shift cg: <p, (A + s) p> <= 0: the operator is not positive definite", res);
    const double alpha = rr / pw;
    m.step(alpha);
    for (std::size_t k = 0; k < n; ++k) {
      if (!m.active[k]) continue;
      if (wide) axpy(Complex<double>(m.alpha_k(k, alpha)), dir_wide[k], x[k]);
      else axpy(Complex<double>(m.alpha_k(k, alpha)), dir[k], acc[k]);
    }
    double rr_new;
    if (wide) {
      axpy(Complex<double>(-alpha), w_wide, r_wide);
      rr_new = norm2(r_wide);
    } else {
      axpy(Complex<double>(-alpha), w, r);
      rr_new = norm2(r);
    }
    ++res.iterations;
    if (!std::isfinite(rr_new)) throw SolverError("multi-shift cg: NaN/Inf in the residual", res);
    if (!wide && rr_new < delta * delta * rr_max) {  // reliable update: the base residual from the double x_0
      flush();
      base_double.apply(r_wide, x[m.k0]);
      ++applications;
      xpay(b, Complex<double>(-1.0), r_wide);
      rr_new = norm2(r_wide);
      convert_precision(r, r_wide);
      rr_max = rr_new;
      ++res.corrections;
    }
    res.residual_history.push_back(std::sqrt(rr_new / b2));
    const double beta = rr_new / rr;
    if (!m.any_active(rr_new)) break;
    for (std::size_t k = 0; k < n; ++k) {
      if (!m.moves(k)) continue;
      if (wide) {
        scale(Complex<double>(m.beta_k(k, beta)), dir_wide[k]);
        axpy(Complex<double>(m.zeta_new[k]), r_wide, dir_wide[k]);  // p_k = zeta_k r + beta_k p_k
      } else {
        scale(Complex<double>(m.beta_k(k, beta)), dir[k]);
        axpy(Complex<double>(m.zeta_new[k]), r, dir[k]);
      }
    }
    m.advance(alpha, beta);
    rr = rr_new;
    rr_max = std::max(rr_max, rr_new);
    if (wide && rr < wide_until * wide_until * b2) {  // on in the sloppy precision
      wide = false;
      convert_precision(r, r_wide);
      // each double direction freed as soon as it is converted: at most n + 1 double-size fields at once
      for (std::size_t k = 0; k < n; ++k) {
        dir.push_back(A_sloppy.make_field());
        convert_precision(dir.back(), dir_wide[k]);
        SpinorField<double> converted = std::move(dir_wide[k]);  // its memory goes here
      }
      dir_wide.clear();
      for (std::size_t k = 0; k < n; ++k) {
        acc.push_back(A_sloppy.make_field());
        set_zero(acc.back());
      }
      rr_max = rr;
    }
  }
  flush();
  return applications;
}

// True residuals of every shift, and the refinement of any above p.tolerance: `refine(k, A_k, x_k)`
// solves (A + s_k) x_k = b from x_k. Fills res.true_residual; returns the refinements' applications.
template <typename Refine>
double check_and_refine(const LinearOperator<double>& A, const std::vector<double>& shifts,
                        std::vector<SpinorField<double>>& x, const SpinorField<double>& b, const SolverParams& p,
                        SolverResult& res, Refine refine) {
  const double b2 = norm2(b);
  double applications = 0;
  SpinorField<double> t = A.make_field();
  for (std::size_t k = 0; k < shifts.size(); ++k) {
    const ShiftedOperator<double> Ak(A, shifts[k]);
    auto true_residual = [&]() {
      if (b2 == 0) return 0.0;
      Ak.apply(t, x[k]);
      xpay(b, Complex<double>(-1.0), t);
      return std::sqrt(norm2(t) / b2);
    };
    double rel = true_residual();
    if (rel > p.tolerance) {
      SolverParams q = p;
      q.max_iterations = std::max(1, p.max_iterations - res.iterations);
      const SolverResult r = refine(k, Ak, x[k], q);
      res.iterations += r.iterations;
      applications += r.iterations;
      rel = true_residual();
    }
    res.true_residual = std::max(res.true_residual, rel);
  }
  return applications;
}

SolverResult multishift_result(const SpinorField<double>& b) {
  SolverResult res;
  res.type = SolverType::CG;
  res.residual_history = {norm2(b) > 0 ? 1.0 : 0.0};
  return res;
}

}  // namespace

SolverResult solve_multishift(const LinearOperator<double>& A, const std::vector<double>& shifts,
                              std::vector<SpinorField<double>>& x, const SpinorField<double>& b, const SolverParams& p) {
  check_params(p);
  check_shifts(shifts);
  if (!fits(A, b)) fail("internal: solve_multishift: the source must have the operator's shape");
  const auto start = std::chrono::steady_clock::now();
  if (!std::isfinite(norm2(b))) throw SolverError("multi-shift cg: NaN/Inf in the source");
  SolverResult res = multishift_result(b);
  double applications = multishift_iterations(A, shifts, x, b, p.tolerance, p.max_iterations, res);
  applications += check_and_refine(A, shifts, x, b, p, res,
                                   [&b](std::size_t, const LinearOperator<double>& Ak, SpinorField<double>& xk,
                                        const SolverParams& q) { return solve_hermitian(Ak, xk, b, q); });
  res.converged = true;
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  res.set_flops(applications * A.flops_per_site() * double(b.sites()));
  return res;
}

SolverResult solve_multishift_mixed(const LinearOperator<double>& A, const LinearOperator<float>& A_sloppy,
                                    const std::vector<double>& shifts, std::vector<SpinorField<double>>& x,
                                    const SpinorField<double>& b, const SolverParams& p) {
  check_params(p);
  check_shifts(shifts);
  if (!fits(A, b) || A_sloppy.subset() != A.subset())
    fail("internal: solve_multishift_mixed: the source and both operators must have one shape");
  const auto start = std::chrono::steady_clock::now();
  if (!std::isfinite(norm2(b))) throw SolverError("multi-shift cg: NaN/Inf in the source");
  SolverResult res = multishift_result(b);
  double applications = 0;
  if (p.reliable_delta > 0) {
    // All shifts in single precision with reliable updates, to the tolerance itself ...
    applications = multishift_reliable_iterations(A, A_sloppy, shifts, x, b, p.tolerance, p.reliable_delta,
                                                  p.max_iterations, res);
  } else {
    // All shifts in single precision, to the inner tolerance (single precision's rounding allows no more) ...
    SpinorField<float> bs = A_sloppy.make_field();
    convert_precision(bs, b);
    std::vector<SpinorField<float>> xs;
    applications =
        multishift_iterations(A_sloppy, shifts, xs, bs, std::max(p.tolerance, p.inner_tolerance), p.max_iterations, res);
    x.clear();
    for (const SpinorField<float>& xk : xs) {
      x.push_back(A.make_field());
      convert_precision(x.back(), xk);
    }
  }
  // ... then each shift still above the tolerance by defect correction: residuals in double, CG in single.
  applications += check_and_refine(A, shifts, x, b, p, res,
                                   [&](std::size_t k, const LinearOperator<double>& Ak, SpinorField<double>& xk,
                                       const SolverParams& q) {
                                     const ShiftedOperator<float> Ak_sloppy(A_sloppy, shifts[k]);
                                     SolverParams mixed = q;
                                     mixed.type = SolverType::CG;
                                     mixed.hermitian = true;
                                     return solve_mixed<float>(Ak, Ak_sloppy, xk, b, mixed);
                                   });
  res.converged = true;
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  res.set_flops(applications * A.flops_per_site() * double(b.sites()));
  return res;
}

template <typename Sloppy>
SolverResult solve_mixed(const LinearOperator<double>& M, const LinearOperator<Sloppy>& M_sloppy,
                         SpinorField<double>& x, const SpinorField<double>& b, const SolverParams& p) {
  constexpr bool half = is_fixed_point_v<Sloppy>;
  if (p.hermitian && p.type == SolverType::CG && p.reliable_delta > 0) return solve_cg_reliable(M, M_sloppy, x, b, p);
  check_params(p);
  if (!(p.inner_tolerance > 0 && p.inner_tolerance < 1))
    fail("solver.inner_tolerance: expected a number between 0 and 1 (got {})", p.inner_tolerance);
  if (!fits(M, x) || !fits(M, b) || !fits(M_sloppy, b))
    fail("internal: solve_mixed: the fields and both operators must have one shape");
  const double sites = double(b.sites());
  solver_detail::MixedPrecisionSolve m(fmt::format("{} (double/{})", solver_type_name(p.type), precision_name<Sloppy>()),
                                       p.type, half ? SolverPrecision::Half : SolverPrecision::Single, M, x, b, sites);
  SolverResult& res = m.res;
  if (m.zero_source()) return m.finish(true);
  SpinorField<double> e = M.make_field();
  SpinorField<Sloppy> r_sloppy = M_sloppy.make_field(), e_sloppy = M_sloppy.make_field();
  const auto true_residual = [&] { return m.true_residual(fmt::format("{} corrections", res.corrections)); };
  double r2 = true_residual();
  res.residual_history = {res.true_residual};
  SolverParams inner = p;
  inner.precision = SolverPrecision::Double;  // the inner solve works in M_sloppy's own precision
  while (!(res.true_residual <= p.tolerance)) {
    if (res.iterations >= p.max_iterations)
      m.fail_with(fmt::format("not converged in {} iterations (solver.max_iterations): true residual {:.2g}, tolerance "
                              "{:.2g}; raise solver.max_iterations, or kappa may be beyond critical",
                              res.iterations, res.true_residual, p.tolerance));
    // Aim a little below what is still needed, but never below what the inner precision can reach.
    inner.tolerance =
        std::max({p.inner_tolerance, half ? kHalfInnerTolerance : 0.0, 0.5 * p.tolerance / res.true_residual});
    inner.max_iterations = p.max_iterations - res.iterations;
    convert_precision(r_sloppy, m.r);
    set_zero(e_sloppy);
    SolverResult c;
    try {
      c = solve(M_sloppy, e_sloppy, r_sloppy, inner);
    } catch (const SolverError& err) {
      // An inner solve that stalls, breaks down or runs out of iterations may still have improved x;
      // the double-precision residual below decides.
      c = err.result();
    }
    m.flops += c.flops;
    convert_precision(e, e_sloppy);
    axpy(Complex<double>(1.0), e, x);
    m.flops += solver_detail::kAxpyFlops * sites;
    ++res.corrections;
    res.iterations += c.iterations;
    const double scale = res.true_residual;
    const double r2_new = true_residual();
    for (std::size_t k = 1; k + 1 < c.residual_history.size(); ++k)
      res.residual_history.push_back(scale * c.residual_history[k]);
    res.residual_history.push_back(res.true_residual);
    if (!(r2_new <= 0.25 * r2) && !(res.true_residual <= p.tolerance))
      m.fail_with(fmt::format("a {}-precision correction reduced the residual by less than a factor 2, to {:.2g} "
                              "(tolerance {:.2g}); use solver.precision = \"double\"",
                              precision_name<Sloppy>(), res.true_residual, p.tolerance));
    r2 = r2_new;
  }
  return m.finish(true);
}

template SolverResult solve_mixed<float>(const LinearOperator<double>&, const LinearOperator<float>&,
                                         SpinorField<double>&, const SpinorField<double>&, const SolverParams&);
template SolverResult solve_mixed<Half>(const LinearOperator<double>&, const LinearOperator<Half>&,
                                        SpinorField<double>&, const SpinorField<double>&, const SolverParams&);

}  // namespace lqcd
