#include "app/spectrum_input.hpp"

#include <cmath>

#include <fmt/format.h>

namespace lqcd::app {

std::vector<KeySpec> spectrum_schema() {
  std::vector<KeySpec> s = quark_schema("lqcd-spectrum");
  s.push_back({"spectrum.momenta", "[[0, 0, 0]]", "sink momenta p = 2 pi n / L, as integer vectors n = [nx, ny, nz]"});
  s.push_back({"spectrum.neutral_pion", "true",
               "twisted mass: also solve with -mu for the connected neutral pion (24 solves instead of 12)"});
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
  return in;
}

}  // namespace lqcd::app
