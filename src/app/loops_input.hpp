#pragma once
// The input of lqcd loops: the quark keys it shares with lqcd propagator (quark_input.hpp; the source keys
// are not used) and its own [loops] keys, read and checked without running anything.

#include <array>
#include <vector>

#include "app/config.hpp"
#include "app/quark_input.hpp"
#include "measure/stochastic_source.hpp"

namespace lqcd::app {

std::vector<KeySpec> loops_schema();

struct LoopsInput {
  QuarkInput quark;
  NoiseSpec noise;                           // type, seed, dilution (index set per vector)
  int vectors = 1;                           // noise vectors, each written on its own
  std::vector<int> gammas;                   // Gamma(n), n = 0..15
  std::vector<std::array<int, 3>> momenta;   // p = 2 pi n / L
  int hopping_expansion = 0;                 // order n of the exact part (measure/hopping_expansion.hpp): 0, 2, 4
};

// Validates every key (errors name the input file and the key).
LoopsInput read_loops_input(const Config& c);

}  // namespace lqcd::app
