#pragma once
// The input of lqcd spectrum: the quark keys it shares with lqcd propagator (quark_input.hpp) and its
// own [spectrum] keys, read and checked without running anything. Kept apart from
// spectrum_command.cpp so that a program that only checks inputs (the TOML fuzzer in fuzz/) does not
// link the HDF5 correlator writer.

#include <array>
#include <vector>

#include "app/config.hpp"
#include "app/quark_input.hpp"
#include "measure/stochastic_source.hpp"

namespace lqcd::app {

std::vector<KeySpec> spectrum_schema();

struct SpectrumInput {
  QuarkInput quark;
  std::vector<std::array<int, 3>> momenta;  // sink momenta n (p = 2 pi n / L), at least one
  bool neutral_pion = false;                // twisted mass only: also the -mu propagator
  double strange_kappa = 0;                 // > 0: a strange quark (same action) for Lambda, Sigma, Xi, Omega
  // Other codes' sinks (measure/sink_operators.hpp), > 0: the mesons again with both sinks rotated by d1,
  // and with one quark's sink convolved with the wavefunction of this radius.
  double rotated_sink_d1 = 0;
  double wavefunction_sink_radius = 0;
  // Three-point functions (measure/pion_three_point.hpp, baryon_three_point.hpp): sink times relative to the
  // source (empty: none), the states (pion, nucleon), the currents (Gamma(n) of a local current, or -1 for
  // the conserved temporal vector current) and the momentum transfers.
  std::vector<int> sink_times;
  bool pion_three_point = true;
  bool nucleon_three_point = false;
  std::vector<int> currents;
  std::vector<std::array<int, 3>> momentum_transfers;
  // The one-end-trick pion (measure/stochastic_estimates.hpp): noise vectors on the source's time slice,
  // spin-colour diluted (0: none).
  int one_end_vectors = 0;
  NoiseType one_end_noise = NoiseType::Z2;
};

// Validates every key (errors name the input file and the key).
SpectrumInput read_spectrum_input(const Config& c);

}  // namespace lqcd::app
