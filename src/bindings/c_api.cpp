#include "bindings/c_api.hpp"

#include <cstring>
#include <memory>
#include <string>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "gauge/observables.hpp"
#include "measure/configuration.hpp"
#include "measure/propagator.hpp"

struct lqcd_gauge {
  lqcd::LoadedConfiguration config;
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
    auto u = std::make_unique<lqcd_gauge>(lqcd_gauge{lqcd::load_configuration(path, policy)});
    for (int mu = 0; mu < 4; ++mu) dims[mu] = u->config.field.geometry().global[mu];
    *out = u.release();
  });
}

void lqcd_gauge_free(lqcd_gauge* u) { std::unique_ptr<lqcd_gauge>{u}; }

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
            const std::size_t k = ((std::size_t(s) * 4 + std::size_t(mu)) * 9 + std::size_t(3 * i + j)) * 2;
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

}  // extern "C"
