#include "measure/propagator.hpp"

#include <cmath>

#include "core/error.hpp"
#include "fields/spinor_blas.hpp"

namespace lqcd {

namespace {

double relative_residual(const LinearOperator<double>& M, const SpinorField<double>& x, const SpinorField<double>& b) {
  SpinorField<double> r = b.like();
  M.apply(r, x);
  xpay(b, Complex<double>(-1.0), r);  // r = b - M x
  const double nb = norm2(b);
  return nb > 0 ? std::sqrt(norm2(r) / nb) : std::sqrt(norm2(r));
}

void smear(SpinorField<double>& psi, const PropagatorOptions& o, const GaussianParams& g) {
  if (o.smearing_links && g.iterations > 0) gaussian_smear(psi, *o.smearing_links, g);
}

// In double precision, or with single- or half-precision corrections by A_single or A_half (the
// same operator).
SolverResult solve_in_precision(const LinearOperator<double>& A, const LinearOperator<float>* A_single,
                                const LinearOperator<Half>* A_half, SpinorField<double>& x,
                                const SpinorField<double>& b, const SolverParams& p) {
  if (p.precision == SolverPrecision::Double) return solve(A, x, b, p);
  if (p.precision == SolverPrecision::Half) {
    if (!A_half)
      fail("solver.precision = \"half\": the half-precision operator is even-odd only; set solver.even_odd = true");
    return solve_mixed(A, *A_half, x, b, p);
  }
  if (!A_single) fail("internal: compute_propagator: single precision needs the single-precision operators");
  return solve_mixed(A, *A_single, x, b, p);
}

}  // namespace

PointPropagator compute_propagator(const DiracOperators& ops, bool even_odd, const SourceSpec& source,
                                   const PropagatorOptions& options,
                                   const std::function<void(const PropagatorSolve&)>& on_solve) {
  const LinearOperator<double>& M = *ops.full;
  const SchurOperator<double>* schur = even_odd ? ops.even_odd.get() : nullptr;
  const Geometry& geom = M.geometry();
  check_source_position(source, geom.global);
  PointPropagator S;
  S.geometry = geom;
  S.source = source.position;
  for (int spin = 0; spin < 4; ++spin)
    for (int colour = 0; colour < 3; ++colour) {
      SpinorField<double> eta = make_source(source, geom, M.location(), spin, colour);
      smear(eta, options, options.source_smearing);
      PropagatorSolve log;
      log.spin = spin;
      log.colour = colour;
      SpinorField<double> psi = M.make_field();
      if (schur) {
        const SpinorField<double> eta_even = schur->prepare_source(eta);
        // The Schur residual is the even part of the full one (the odd part vanishes by
        // construction), so ||b_e^ - M^ x_e|| <= tol ||eta|| keeps the full residual below tol.
        SolverParams p = options.solver;
        const double n_full = std::sqrt(norm2(eta)), n_even = std::sqrt(norm2(eta_even));
        if (n_even > 0) p.tolerance = std::min(p.tolerance, p.tolerance * n_full / n_even);
        SpinorField<double> x_even = schur->make_field();
        set_zero(x_even);
        log.result = solve_in_precision(*schur, ops.even_odd_single.get(), ops.even_odd_half.get(), x_even, eta_even, p);
        psi = schur->reconstruct(x_even, eta);
      } else {
        set_zero(psi);
        log.result = solve_in_precision(M, ops.full_single.get(), nullptr, psi, eta, options.solver);
      }
      log.full_residual = relative_residual(M, psi, eta);
      // Rounding in the reconstruction may add a little; more than that is a wrong solution.
      if (!(log.full_residual <= 10 * options.solver.tolerance))
        throw SolverError(fmt::format("propagator (spin {}, colour {}): the full-operator residual {:.3g} exceeds the "
                                      "tolerance {:.3g}; the solution is not trusted",
                                      spin, colour, log.full_residual, options.solver.tolerance));
      smear(psi, options, options.sink_smearing);
      S.column[std::size_t(spin * 3 + colour)] = to_local_lexicographic(psi);  // this rank's box
      if (on_solve) on_solve(log);
    }
  return S;
}

}  // namespace lqcd
