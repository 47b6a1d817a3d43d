#include "bindings/c_api.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <cmath>
#include <filesystem>

#include "app/config.hpp"
#include "app/hmc_command.hpp"
#include "app/quark_input.hpp"
#include "app/run_files.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "gauge/ape_smearing.hpp"
#include "gauge/gauge_action.hpp"
#include "gauge/gradient_flow.hpp"
#include "gauge/open_boundary.hpp"
#include "gauge/hyp_smearing.hpp"
#include "gauge/observables.hpp"
#include "gauge/stout_smearing.hpp"
#include "gauge/updates.hpp"
#include "measure/configuration.hpp"
#include "measure/effective_mass.hpp"
#include "measure/gevp.hpp"
#include "measure/propagator.hpp"

struct lqcd_gauge {
  lqcd::LoadedConfiguration config;
};

struct lqcd_hmc {
  std::unique_ptr<lqcd::Hmc> hmc;
};

namespace {

thread_local std::string last_error;

// Runs f, turning every exception into -1 and its message.
template <typename F>
int guarded(F&& f) {
  try {
    f();
    return 0;
  } catch (const std::exception& e) {
    last_error = e.what();
  } catch (...) {
    last_error = "unknown error";
  }
  return -1;
}

lqcd::Location location_of(int device) {
  if (device && !lqcd::device_available())
    lqcd::fail("lqcd.core: no usable CUDA device ({})", lqcd::device_description());
  return device ? lqcd::Location::Device : lqcd::Location::Host;
}

// A handle for a field made here (not read from a file: no file information). The handle's stored
// observables are not used: every query measures the field as it is now.
lqcd_gauge* handle_of(lqcd::GaugeField<double>&& U) {
  return std::make_unique<lqcd_gauge>(lqcd_gauge{lqcd::LoadedConfiguration{{}, std::move(U), {}, 0}}).release();
}

// Offset in doubles of link (site, mu) entry (i, j) in the caller's [T][Z][Y][X][4][3][3] complex array.
std::size_t link_offset(std::int64_t site, int mu, int i, int j) {
  return ((std::size_t(site) * 4 + std::size_t(mu)) * 9 + std::size_t(3 * i + j)) * 2;
}

lqcd::Geometry geometry_of(const int dims[4]) {
  return lqcd::Geometry::single_process(lqcd::Dims{dims[0], dims[1], dims[2], dims[3]}, "dims");
}

// The quark of the caller's TOML ([fermion], [solver], [multigrid]), read by lqcd propagator's own
// input code on u's lattice, so that keys, defaults and errors are the command line's.
lqcd::app::QuarkInput quark_input(const lqcd_gauge* u, const char* toml) {
  lqcd::app::Config c(lqcd::app::quark_schema("lqcd-core"), "lqcd.core");
  const lqcd::Dims& d = u->config.field.geometry().global;
  c.merge_text(fmt::format("[gauge]\nconfig = \"unit\"\n[lattice]\ndims = [{}, {}, {}, {}]\n", d[0], d[1], d[2], d[3]),
               "lqcd.core");
  c.merge_text(toml ? toml : "", "lqcd.core toml");
  return lqcd::app::read_quark_input(c);
}

lqcd::DiracOperators quark_operators(const lqcd_gauge* u, const lqcd::app::QuarkInput& in) {
  return lqcd::make_dirac_operators(u->config.field, in.fermion, lqcd::app::sloppy_precision_of(in.solver.precision));
}

lqcd::DiracOperators wilson(const lqcd_gauge* u, double kappa) {
  lqcd::FermionParams p;
  p.action = lqcd::FermionAction::Wilson;
  p.wilson.kappa = kappa;
  lqcd::check_fermion_params(p);
  return lqcd::make_dirac_operators(u->config.field, p);
}

// A spinor field from the caller's lexicographic array and back (ColorSpinor<double> is 12 complex
// doubles, the array's layout per site).
lqcd::SpinorField<double> spinor_from(const lqcd_gauge* u, const double* in) {
  const lqcd::Geometry& g = u->config.field.geometry();
  lqcd::LexicographicSpinor lex(std::size_t(g.volume()));
  static_assert(sizeof(lqcd::ColorSpinor<double>) == 24 * sizeof(double));
  std::memcpy(static_cast<void*>(lex.data()), in, lex.size() * sizeof(lqcd::ColorSpinor<double>));
  return lqcd::to_spinor_field(lex, g, u->config.field.location());
}

void spinor_to(const lqcd::SpinorField<double>& psi, double* out) {
  const lqcd::LexicographicSpinor lex = lqcd::to_lexicographic(psi);
  std::memcpy(out, static_cast<const void*>(lex.data()), lex.size() * sizeof(lqcd::ColorSpinor<double>));
}

}  // namespace

extern "C" {

const char* lqcd_last_error(void) { return last_error.c_str(); }

int lqcd_has_device(void) { return lqcd::device_available() ? 1 : 0; }

int lqcd_gauge_load(const char* path, int device, lqcd_gauge** out, int dims[4]) {
  return guarded([&] {
    if (device && !lqcd::device_available())
      lqcd::fail("lqcd_gauge_load: no usable CUDA device ({})", lqcd::device_description());
    lqcd::LoadPolicy policy;
    policy.location = device ? lqcd::Location::Device : lqcd::Location::Host;
    policy.open_time_boundary_by_links = true;  // an open lattice's file (its zero links), as lqcd flow reads it
    auto u = std::make_unique<lqcd_gauge>(lqcd_gauge{lqcd::load_configuration(path, policy)});
    for (int mu = 0; mu < 4; ++mu) dims[mu] = u->config.field.geometry().global[mu];
    *out = u.release();
  });
}

void lqcd_gauge_free(lqcd_gauge* u) { std::unique_ptr<lqcd_gauge>{u}; }

int lqcd_gauge_unit(const int dims[4], int device, lqcd_gauge** out) {
  return guarded([&] {
    lqcd::GaugeField<double> U(geometry_of(dims), location_of(device));
    lqcd::set_unit_gauge(U);
    *out = handle_of(std::move(U));
  });
}

int lqcd_gauge_from_links(const double* links, const int dims[4], int device, lqcd_gauge** out) {
  return guarded([&] {
    const lqcd::Geometry g = geometry_of(dims);
    lqcd::LexicographicGauge lex(g.global);
    for (std::int64_t s = 0; s < lex.volume(); ++s)
      for (int mu = 0; mu < 4; ++mu)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) {
            const std::size_t k = link_offset(s, mu, i, j);
            lex(s, mu).m[i][j] = lqcd::Complex<double>(links[k], links[k + 1]);
          }
    lqcd::GaugeField<double> U = lqcd::to_gauge_field(lex, g, location_of(device));
    const lqcd::UnitarityStats su3 = lqcd::unitarity(U, 1e-10);
    if (su3.violations > 0)
      lqcd::fail("lqcd.core: {} links are not SU(3) (largest deviation |UU^+ - 1| + |det U - 1| = {:.3g}, "
                 "tolerance 1e-10)", std::int64_t(su3.violations), su3.max_deviation);
    *out = handle_of(std::move(U));
  });
}

int lqcd_gauge_copy(const lqcd_gauge* u, lqcd_gauge** out) {
  return guarded([&] { *out = handle_of(u->config.field.clone(u->config.field.location())); });
}

int lqcd_gauge_reunitarize(lqcd_gauge* u) {
  return guarded([&] {
    lqcd::reunitarize(u->config.field);
  });
}

int lqcd_gauge_save(const lqcd_gauge* u, const char* path, const char* format, int precision_bits, int overwrite) {
  return guarded([&] {
    const std::string f = format ? format : "";
    if (f != "ildg" && f != "nersc" && f != "openqcd")
      lqcd::fail("lqcd.core save: format \"{}\": expected ildg, nersc or openqcd", f);
    const int bits = precision_bits == 0 ? 64 : precision_bits;
    if (bits != 32 && bits != 64) lqcd::fail("lqcd.core save: precision {}: expected 32 or 64", precision_bits);
    if (f == "openqcd" && bits != 64) lqcd::fail("lqcd.core save: the openqcd format stores 64-bit reals only");
    std::error_code ec;
    if (!overwrite && std::filesystem::exists(std::filesystem::symlink_status(path, ec)))
      lqcd::fail("{}: exists already (pass overwrite=True to replace it)", path);
    if (bits == 64) {
      const lqcd::UnitarityStats su3 = lqcd::unitarity(u->config.field, 1e-10);
      if (su3.violations > 0)
        lqcd::fail("{}: {} links are SU(3) only to {:.3g} (read from 32-bit storage?), not to the 1e-10 a 64-bit "
                   "file promises: project them first (reunitarize()) or save with precision 32",
                   path, std::int64_t(su3.violations), su3.max_deviation);
    }
    const lqcd::GaugeObservables o = lqcd::gauge_observables(u->config.field);
    lqcd::io::WriteOptions w;
    w.precision_bits = bits;
    w.plaquette = o.plaquette;
    w.link_trace = o.link_trace;
    w.metadata = {{"lqcd.written_by", "lqcd.core (Python)"}};
    lqcd::app::save_configuration(path, f, u->config.field, w);
  });
}

int lqcd_gauge_observables(const lqcd_gauge* u, double out[7]) {
  return guarded([&] {
    const lqcd::GaugeObservables o = lqcd::gauge_observables(u->config.field);
    const double v[7] = {o.plaquette, o.plaquette_spatial, o.plaquette_temporal, o.rectangle, o.link_trace,
                         o.polyakov_loop.re, o.polyakov_loop.im};
    std::copy(v, v + 7, out);
  });
}

int lqcd_gauge_smear(const lqcd_gauge* u, const char* method, int steps, double parameter, int spatial,
                     lqcd_gauge** out) {
  return guarded([&] {
    const std::string m = method ? method : "";
    if (steps < 0) lqcd::fail("lqcd.core smear: steps {}: expected >= 0", steps);
    const lqcd::GaugeField<double>& U = u->config.field;
    if (m == "ape") {
      if (!(parameter >= 0 && parameter <= 1)) lqcd::fail("lqcd.core smear: APE alpha {}: expected 0..1", parameter);
      *out = handle_of(lqcd::ape_smear(U, lqcd::ApeParams{parameter, steps, spatial != 0}));
    } else if (m == "stout") {
      if (!(parameter >= 0 && std::isfinite(parameter)))
        lqcd::fail("lqcd.core smear: stout rho {}: expected a finite value >= 0", parameter);
      *out = handle_of(lqcd::stout_smear(U, lqcd::StoutParams{parameter, steps, spatial != 0}));
    } else if (m == "hyp") {
      lqcd::HypParams p;
      p.steps = steps;
      p.spatial = spatial != 0;
      *out = handle_of(lqcd::hyp_smear(U, p));
    } else {
      lqcd::fail("lqcd.core smear: method \"{}\": expected ape, stout or hyp", m);
    }
  });
}

int lqcd_gauge_flow(lqcd_gauge* u, const char* action, double epsilon, double t_max, int every, double* out,
                    int max_rows, int* rows) {
  return guarded([&] {
    lqcd::FlowParams p;
    p.action = lqcd::flow_action_from_name(action ? action : "", "action");
    p.epsilon = epsilon;
    p.t_max = t_max;
    p.measure_every = every;
    p.open_boundary = lqcd::time_links_vanish_at_last_slice(u->config.field);  // as lqcd flow --boundary auto
    lqcd::check_flow_params(p);
    if (!(t_max > 0)) lqcd::fail("lqcd.core flow: t_max {}: expected > 0", t_max);
    const std::vector<lqcd::FlowMeasurement> h = lqcd::run_gradient_flow(u->config.field, p);
    if (int(h.size()) > max_rows)
      lqcd::fail("lqcd.core flow: {} measurements, room for {} (internal)", h.size(), max_rows);
    for (std::size_t k = 0; k < h.size(); ++k) {
      const double v[5] = {h[k].t, h[k].energy_plaquette, h[k].energy_clover, h[k].t2E_clover(), h[k].charge};
      std::copy(v, v + 5, out + 5 * k);
    }
    *rows = int(h.size());
  });
}

int lqcd_gauge_heatbath(lqcd_gauge* u, const char* action, double beta, int sweeps, int overrelaxation,
                        unsigned long long seed, unsigned first_sweep) {
  return guarded([&] {
    if (sweeps < 0 || overrelaxation < 0)
      lqcd::fail("lqcd.core heatbath: sweeps {} and overrelaxation {}: expected >= 0", sweeps, overrelaxation);
    const lqcd::GaugeAction a = lqcd::GaugeAction::from_name(action ? action : "", beta, "action");
    for (int s = 0; s < sweeps; ++s) {
      lqcd::heatbath_sweep(u->config.field, a, seed, std::uint32_t(first_sweep + unsigned(s)));
      for (int k = 0; k < overrelaxation; ++k) lqcd::overrelaxation_sweep(u->config.field, a);
    }
  });
}

int lqcd_gauge_plaquette(const lqcd_gauge* u, double* plaquette) {
  return guarded([&] { *plaquette = lqcd::gauge_observables(u->config.field).plaquette; });
}

int lqcd_gauge_links(const lqcd_gauge* u, double* out) {
  return guarded([&] {
    const lqcd::LexicographicGauge lex = lqcd::to_lexicographic(u->config.field);
    for (std::int64_t s = 0; s < lex.volume(); ++s)
      for (int mu = 0; mu < 4; ++mu)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) {
            const std::size_t k = link_offset(s, mu, i, j);
            out[k] = lex(s, mu).m[i][j].re;
            out[k + 1] = lex(s, mu).m[i][j].im;
          }
  });
}

int lqcd_gauge_storage(const lqcd_gauge* u, void** data, size_t* bytes, int* on_device) {
  return guarded([&] {
    *data = static_cast<void*>(u->config.field.view().data);
    *bytes = u->config.field.bytes();
    *on_device = u->config.field.location() == lqcd::Location::Device ? 1 : 0;
  });
}

int lqcd_wilson_apply(const lqcd_gauge* u, double kappa, const double* in, double* out) {
  return guarded([&] {
    const lqcd::DiracOperators ops = wilson(u, kappa);
    const lqcd::SpinorField<double> x = spinor_from(u, in);
    lqcd::SpinorField<double> y(x.geometry(), x.location());
    ops.full->apply(y, x);
    spinor_to(y, out);
  });
}

int lqcd_wilson_solve(const lqcd_gauge* u, double kappa, double tolerance, const double* b, double* x,
                      int* iterations) {
  return guarded([&] {
    const lqcd::DiracOperators ops = wilson(u, kappa);
    lqcd::PropagatorOptions o;
    o.solver.type = lqcd::SolverType::CG;
    o.solver.tolerance = tolerance;
    o.solver.max_iterations = 100000;
    int its = 0;
    lqcd::solve_sources(
        ops, true, 1, [&](int) { return spinor_from(u, b); }, o,
        [&](int, lqcd::SpinorField<double>& psi) { spinor_to(psi, x); },
        [&](const lqcd::PropagatorSolve& s) { its = s.result.iterations; });
    if (iterations) *iterations = its;
  });
}

int lqcd_hmc_new(const char* toml, lqcd_hmc** out) {
  return guarded([&] {
    lqcd::app::Config c(lqcd::app::hmc_schema(), "hmc", lqcd::app::hmc_repeated_sections());
    c.merge_text(toml ? toml : "", "lqcd.core Hmc");
    *out = std::make_unique<lqcd_hmc>(lqcd_hmc{lqcd::app::make_hmc(c)}).release();
  });
}

void lqcd_hmc_free(lqcd_hmc* h) { std::unique_ptr<lqcd_hmc>{h}; }

int lqcd_hmc_trajectory(lqcd_hmc* h, lqcd_gauge* u, unsigned trajectory, int metropolis, double out[4]) {
  return guarded([&] {
    const lqcd::TrajectoryResult r = h->hmc->trajectory(u->config.field, std::uint32_t(trajectory), metropolis != 0);
    out[0] = r.dH;
    out[1] = r.acceptance_probability;
    out[2] = r.accepted ? 1 : 0;
    out[3] = r.seconds;
  });
}

int lqcd_dirac_apply(const lqcd_gauge* u, const char* toml, const double* in, double* out) {
  return guarded([&] {
    const lqcd::DiracOperators ops = quark_operators(u, quark_input(u, toml));
    const lqcd::SpinorField<double> x = spinor_from(u, in);
    lqcd::SpinorField<double> y(x.geometry(), x.location());
    ops.full->apply(y, x);
    spinor_to(y, out);
  });
}

int lqcd_dirac_solve(const lqcd_gauge* u, const char* toml, const double* b, double* x, int* iterations,
                     double* residual) {
  return guarded([&] {
    const lqcd::app::QuarkInput in = quark_input(u, toml);
    if (in.multi_rhs) lqcd::fail("lqcd.core dirac_solve: solver.multi_rhs = true: one right-hand side here (not used)");
    const lqcd::DiracOperators ops = quark_operators(u, in);
    lqcd::PropagatorOptions o;
    o.solver = in.solver;
    o.multigrid = in.multigrid;
    lqcd::PropagatorSolve last;
    lqcd::solve_sources(
        ops, in.even_odd, 1, [&](int) { return spinor_from(u, b); }, o,
        [&](int, lqcd::SpinorField<double>& psi) { spinor_to(psi, x); },
        [&](const lqcd::PropagatorSolve& s) { last = s; });
    if (iterations) *iterations = last.result.iterations;
    if (residual) *residual = last.full_residual;
  });
}

}  // extern "C"

int lqcd_effective_mass(const double* c, int n, int T, const char* kind, double* m) {
  return guarded([&] {
    if (n < 2) lqcd::fail("effective mass: {} time slices (expected at least 2)", n);
    const std::vector<double> values(c, c + n);
    const std::string k = kind ? kind : "";
    std::vector<double> r;
    if (k == "log") {
      r = lqcd::log_effective_mass(values);
    } else if (k == "cosh") {
      if (T < n) lqcd::fail("effective mass: the time extent T = {} is below the {} slices given", T, n);
      r = lqcd::cosh_effective_mass(values, T);
    } else {
      lqcd::fail("effective mass: kind is \"log\" or \"cosh\", got \"{}\"", k);
    }
    std::copy(r.begin(), r.end(), m);
  });
}

int lqcd_gevp(const double* c, int T, int n, int t0, double* lambda, double* energy) {
  return guarded([&] {
    if (T < 1 || n < 1) lqcd::fail("gevp: {} times of {} x {} matrices", T, n, n);
    std::vector<std::vector<lqcd::Complex<double>>> values(static_cast<std::size_t>(T));
    for (std::size_t t = 0; t < values.size(); ++t)
      for (std::size_t k = 0; k < std::size_t(n) * std::size_t(n); ++k) {
        const double* z = c + 2 * (t * std::size_t(n) * std::size_t(n) + k);
        values[t].emplace_back(z[0], z[1]);
      }
    const lqcd::GevpResult r = lqcd::solve_gevp(values, n, t0);
    for (std::size_t t = 0; t < r.lambda.size(); ++t)
      std::copy(r.lambda[t].begin(), r.lambda[t].end(), lambda + t * std::size_t(n));
    for (std::size_t t = 0; t < r.effective_energy.size(); ++t)
      std::copy(r.effective_energy[t].begin(), r.effective_energy[t].end(), energy + t * std::size_t(n));
  });
}

int lqcd_flow_scales(const double* t, const double* t2E, int n, double reference, double* t0, double* w0) {
  return guarded([&] {
    if (n < 0) lqcd::fail("flow scales: {} flow times", n);
    const lqcd::FlowScales s = lqcd::flow_scales(std::vector<double>(t, t + n), std::vector<double>(t2E, t2E + n),
                                                 reference);
    const double nan = std::nan("");
    *t0 = s.t0.value_or(nan);
    *w0 = s.w0.value_or(nan);
  });
}
