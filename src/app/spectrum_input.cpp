#include "app/spectrum_input.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "measure/spin_matrix.hpp"

namespace lqcd::app {

std::vector<KeySpec> spectrum_schema() {
  std::vector<KeySpec> s = quark_schema("lqcd-spectrum");
  s.push_back({"spectrum.momenta", "[[0, 0, 0]]", "sink momenta p = 2 pi n / L, as integer vectors n = [nx, ny, nz]"});
  s.push_back({"spectrum.neutral_pion", "true",
               "twisted mass: also solve with -mu for the connected neutral pion (24 solves instead of 12)"});
  s.push_back({"spectrum.three_point_sink_times", "[]",
               "three-point functions: source-sink separations t_s (1..T-1), sink at rest; [] none"});
  s.push_back({"spectrum.three_point_hadrons", "[\"pion\"]",
               "their states: \"pion\" (current on the u quark; 12 sequential solves per t_s) and \"nucleon\" (the "
               "proton, current on its u and on its d quarks, unpolarised and polarised along z; 48 solves per t_s)"});
  s.push_back({"spectrum.three_point_currents", "[\"gt\", \"conserved_vector\"]",
               "their currents qbar G q: a Gamma name (\"gt\", \"gxgt\", \"g5\", ...; gamma_z gamma_5, the axial "
               "current of g_A, is \"gxgygt\") or \"conserved_vector\" (the temporal point-split current, charge exactly 1 "
               "per quark)"});
  s.push_back({"spectrum.momentum_transfers", "[[0, 0, 0]]", "momenta q of the current, as integer vectors n (q = 2 pi n / L)"});
  s.push_back({"spectrum.one_end_vectors", "0",
               "the one-end-trick pion: noise vectors on the source's time slice, spin-colour diluted (12 solves "
               "each), each written on its own; 0: none"});
  s.push_back({"spectrum.one_end_noise", "\"z2\"", "their noise: \"z2\", \"z4\" or \"u1\" (seed: source.seed)"});
  s.push_back({"spectrum.rotated_sink_d1", "0.0",
               "also the 16 mesons with both quarks' sinks rotated, psi - d1 gamma.nabla psi (MILC's rotate_3D, the "
               "Fermilab rotation; datasets G_G_rotated); 0: none; one process only"});
  s.push_back({"spectrum.wavefunction_sink_radius", "0.0",
               "also the 16 mesons with one quark's sink convolved with exp(-r^2/r0^2) over its time slice (MILC's "
               "\"gaussian\" sink; for Coulomb gauge; datasets G_G_wavefunction_sink); r0, 0: none; one process only"});
  s.push_back({"spectrum.strange_kappa", "0.0",
               "kappa of a strange quark (the same action, c_sw and boundary conditions as fermion): adds the "
               "Lambda, Sigma, Xi and Omega baryons (12 more solves); 0: none"});
  return s;
}

SpectrumInput read_spectrum_input(const Config& c) {
  SpectrumInput in;
  in.quark = read_quark_input(c);
  in.momenta = read_momenta(c, "spectrum.momenta");
  in.neutral_pion = in.quark.fermion.action == FermionAction::TwistedMass && c.boolean("spectrum.neutral_pion");
  in.strange_kappa = c.real("spectrum.strange_kappa");
  if (!std::isfinite(in.strange_kappa) || in.strange_kappa < 0)
    c.fail_key("spectrum.strange_kappa", fmt::format("expected a positive kappa or 0 (no strange quark), got {}", in.strange_kappa));
  if (in.strange_kappa > 0 && in.quark.fermion.action == FermionAction::TwistedMass)
    c.fail_key("spectrum.strange_kappa",
               "not available with fermion.action = \"twisted_mass\" (its strange quark belongs to a non-degenerate "
               "doublet, which lqcd does not have); use 0");
  for (const std::int64_t t : c.integers("spectrum.three_point_sink_times")) {
    if (in.quark.dims_set && (t < 1 || t >= in.quark.dims[3]))
      c.fail_key("spectrum.three_point_sink_times", fmt::format("{} is not a separation 1..T-1 of the {} time slices", t, in.quark.dims[3]));
    if (t < 1 || t > (1 << 20)) c.fail_key("spectrum.three_point_sink_times", fmt::format("{} is not a positive separation", t));
    in.sink_times.push_back(int(t));
  }
  for (std::size_t i = 0; i < in.sink_times.size(); ++i)
    for (std::size_t k = 0; k < i; ++k)
      if (in.sink_times[i] == in.sink_times[k])
        c.fail_key("spectrum.three_point_sink_times", fmt::format("{} is listed twice", in.sink_times[i]));
  if (!in.sink_times.empty()) {
    if (in.quark.sink_smearing.iterations > 0)
      c.fail_key("spectrum.three_point_sink_times", "three-point functions need a point sink (sink.smearing = "
                                                    "\"none\"): the current sits at every site of the propagator's sink");
    if (in.quark.fermion.action == FermionAction::TwistedMass)
      c.fail_key("spectrum.three_point_sink_times", "three-point functions need wilson or clover quarks (their "
                                                    "sequential source uses gamma_5-hermiticity of one flavour)");
    in.pion_three_point = false;
    for (const std::string& h : c.strings("spectrum.three_point_hadrons")) {
      bool& on = h == "pion" ? in.pion_three_point : in.nucleon_three_point;
      if (h != "pion" && h != "nucleon")
        c.fail_key("spectrum.three_point_hadrons", fmt::format("unknown state \"{}\" (expected \"pion\" or \"nucleon\")", h));
      if (on) c.fail_key("spectrum.three_point_hadrons", fmt::format("\"{}\" is listed twice", h));
      on = true;
    }
    if (!in.pion_three_point && !in.nucleon_three_point)
      c.fail_key("spectrum.three_point_hadrons", "expected at least one state, e.g. [\"pion\"]");
    for (const std::string& g : c.strings("spectrum.three_point_currents")) {
      if (g == "conserved_vector") {
        for (const int k : in.currents)
          if (k == -1) c.fail_key("spectrum.three_point_currents", "\"conserved_vector\" is listed twice");
        in.currents.push_back(-1);
        continue;
      }
      int n = 0;
      try {
        n = gamma_index(g, "spectrum.three_point_currents");
      } catch (const Error&) {
        c.fail_key("spectrum.three_point_currents",
                   fmt::format("unknown current \"{}\" (expected a Gamma name such as \"gt\" or \"conserved_vector\")", g));
      }
      for (const int k : in.currents)
        if (k == n) c.fail_key("spectrum.three_point_currents", fmt::format("\"{}\" is listed twice", g));
      in.currents.push_back(n);
    }
    if (in.currents.empty()) c.fail_key("spectrum.three_point_currents", "expected at least one current, e.g. [\"gt\"]");
    in.momentum_transfers = read_momenta(c, "spectrum.momentum_transfers");
  }
  for (const char* key : {"spectrum.rotated_sink_d1", "spectrum.wavefunction_sink_radius"}) {
    const double v = c.real(key);
    if (!std::isfinite(v) || v < 0) c.fail_key(key, fmt::format("expected a number >= 0 (0: none), got {}", v));
  }
  in.rotated_sink_d1 = c.real("spectrum.rotated_sink_d1");
  in.wavefunction_sink_radius = c.real("spectrum.wavefunction_sink_radius");
  const std::int64_t vectors = c.integer("spectrum.one_end_vectors");
  if (vectors < 0 || vectors > 100000) c.fail_key("spectrum.one_end_vectors", fmt::format("expected 0 to 100000, got {}", vectors));
  in.one_end_vectors = int(vectors);
  try {
    in.one_end_noise = noise_type_from_name(c.string("spectrum.one_end_noise"), "spectrum.one_end_noise");
  } catch (const Error&) {
    c.fail_key("spectrum.one_end_noise",
               fmt::format("unknown noise \"{}\" (expected \"z2\", \"z4\" or \"u1\")", c.string("spectrum.one_end_noise")));
  }
  return in;
}

}  // namespace lqcd::app
