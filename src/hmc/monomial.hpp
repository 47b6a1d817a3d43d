#pragma once
// A term of the HMC Hamiltonian's action, S = sum of monomials: the gauge action and the fermion
// determinants (each through pseudofermions). The integrator asks each monomial for its force at
// the integration level it is assigned to (md_kernels.hpp has the force conventions).

#include <cstdint>
#include <string>
#include <vector>

#include "fields/gauge_field.hpp"
#include "hmc/momentum_field.hpp"

namespace lqcd {

class Monomial {
 public:
  virtual ~Monomial() = default;
  // "gauge", "wilson (kappa 0.155)", ... for logs.
  virtual std::string name() const = 0;
  // At the start of a trajectory: draw the auxiliary fields (pseudofermions) for the links U, keyed
  // by (seed, trajectory) so that a run is reproducible on any backend. The gauge monomial has none.
  virtual void refresh(const GaugeField<double>& U, std::uint64_t seed, std::uint32_t trajectory) = 0;
  // S[U] (with the pseudofermions of the last refresh).
  virtual double action(const GaugeField<double>& U) = 0;
  // S[U] right after refresh(U), at the same links (the trajectory's start). A pseudofermion drawn as
  // phi = M^dag eta has phi^dag (M^dag M)^{-1} phi = eta^dag eta: the fermion monomials know it without a
  // solve. The default evaluates action(U).
  virtual double action_after_refresh(const GaugeField<double>& U) { return action(U); }
  // F += dS/dU (F^a = d/dw S[e^{i w T^a} U] per link).
  virtual void add_force(const GaugeField<double>& U, MomentumField& F) = 0;
  // Solver iterations and seconds since the last call (fermion monomials; zero otherwise), for the logs.
  struct SolverStats {
    long iterations = 0;
    double seconds = 0;
    double setup_seconds = 0;      // of `seconds`, in multigrid setups and refreshes
    long multigrid_solves = 0;     // of the solves, those by the multigrid (two per force)
    long multigrid_iterations = 0;  // of `iterations`, their outer GCR iterations
  };
  virtual SolverStats take_solver_stats() { return {}; }
  // Warnings since the last call (the rational monomial's spectral check), for the logs.
  virtual std::vector<std::string> take_warnings() { return {}; }

  int level = 0;  // integration level: 0 = outermost (largest step)
};

}  // namespace lqcd
