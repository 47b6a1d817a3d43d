#pragma once
// What lqcd propagator and lqcd spectrum share: the [lattice], [gauge], [fermion], [solver],
// [source] and [sink] keys of the input, the gauge field they name (a file, or the unit field), the
// Dirac operator they define, and the 12 logged solves of one propagator.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/config.hpp"
#include "app/output.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "gauge/ape_smearing.hpp"
#include "gauge/gauge_fixing.hpp"
#include "gauge/observables.hpp"
#include "measure/propagator.hpp"

namespace lqcd::app {

// The shared keys; `prefix` is the default of output.prefix.
std::vector<KeySpec> quark_schema(const std::string& prefix);

struct QuarkInput {
  std::string config;  // "unit" or a file
  Dims dims{};         // lattice.dims (required for "unit", checked against a file when set)
  bool dims_set = false;
  std::string input_file;  // the input file, for errors found later (a configuration's dims unlike lattice.dims)
  FermionParams fermion;
  SolverParams solver;
  bool even_odd = true;
  bool multi_rhs = false;  // solver.multi_rhs: the 12 solves of a source together
  MultigridParams multigrid;  // [multigrid], for solver.type = "multigrid"
  SourceSpec source;
  std::optional<GaugeFixParams> gauge_fixing;  // [gauge_fixing]: fix the configuration before the solves
  bool gauge_fixing_auto = true;               // gauge_fixing.method = "auto": fft on one process
  ApeParams ape;
  GaussianParams source_smearing, sink_smearing;
  std::string prefix;
};

// Validates every key (errors name the input file and the key).
QuarkInput read_quark_input(const Config& c);
// For the commands that do not take open boundaries in time yet (loops, distill): a one-line error naming
// fermion.boundary where `in` has them.
void refuse_open_time_boundary(const Config& c, const QuarkInput& in);

// A list of sink or insertion momenta n (p = 2 pi n / L) under `key`, at least one, every component within
// [-2^20, 2^20] (beyond that the phase 2 pi n x / L loses every digit; no lattice is that large).
std::vector<std::array<int, 3>> read_momenta(const Config& c, const std::string& key);

// The reduced precision of the operators' sloppy copies that solver.precision asks for.
SloppyPrecision sloppy_precision_of(SolverPrecision p);

// Refuses, before any file is written, a lattice given by lattice.dims (the unit field, or a file's dims
// when set) that this process cannot hold (errors name the input file and lattice.dims).
void check_quark_lattice_fits(const QuarkInput& in, const Config& c, Location loc, const std::string& grid);

// The gauge field, its smeared copy for Gaussian smearing, and the Dirac operators, on one location.
// The operators refer to the gauge field, so a QuarkProblem is neither copied nor moved.
class QuarkProblem {
 public:
  // grid: processes per direction as given by --grid ("X,Y,Z,T"; empty: ProcessGrid::default_grid over the
  // run's processes); every rank then holds its part of the lattice and the propagators' boxes.
  QuarkProblem(const QuarkInput& in, Location loc, const std::string& grid = "");
  QuarkProblem(const QuarkProblem&) = delete;
  QuarkProblem& operator=(const QuarkProblem&) = delete;

  const GaugeField<double>& links() const { return *U_; }
  const GaugeObservables& observables() const { return observables_; }
  const std::string& gauge_description() const { return description_; }
  // The operators for twisted mass mu (the input's, or -mu for the d quark).
  const DiracOperators& operators() const { return ops_; }
  DiracOperators operators_with_mu(double mu) const;
  // The operators of another quark of the same action (a strange quark's kappa).
  DiracOperators operators_with_kappa(double kappa) const;

  // The solver's options for this input (its multigrid setups logged under `label`); log and jsonl must
  // outlive the solves. They are for operators(): with solver.type = "multigrid" every solve on them (the
  // propagator, sequential sources, one-end and loop noise vectors) shares one setup, made by the first.
  PropagatorOptions solve_options(const QuarkInput& in, RunLog& log, JsonLines& jsonl, const std::string& label) const;

  // The 12 solves for the input's source, each logged as one line and one JSON-lines record.
  PointPropagator propagator(const QuarkInput& in, const DiracOperators& ops, RunLog& log, JsonLines& jsonl,
                             const std::string& label) const;

 private:
  std::unique_ptr<GaugeField<double>> U_;
  std::unique_ptr<GaugeField<double>> smeared_;
  GaugeObservables observables_;
  std::string description_;
  FermionParams fermion_;
  SloppyPrecision sloppy_ = SloppyPrecision::None;  // solver.precision single / half: the operators' copies
  int block_rhs_ = 0;  // solver.multi_rhs: 12, the block operators' right-hand sides
  DiracOperators ops_;
  std::shared_ptr<MultigridCache> multigrid_ = std::make_shared<MultigridCache>();  // the setup on ops_
};

// "wilson, kappa = 0.155 (m0 = -0.774), boundary (p, p, p, a)" etc. for logs.
std::string describe_fermion(const FermionParams& f);

// The source's and sink's smearing and the links it uses, for the correlator files' attributes
// (source_smearing, sink_smearing, link_smearing): "none" or the form with every parameter.
std::string describe_quark_smearing(const GaussianParams& g);
std::string describe_link_smearing(const QuarkInput& in);

// Writes the input (every key with its value) to the log as comments.
void log_input(RunLog& log, const Config& c);

}  // namespace lqcd::app
