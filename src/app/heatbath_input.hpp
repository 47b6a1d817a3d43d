#pragma once
// The input of lqcd heatbath: its TOML keys (heatbath_schema) and the checked values they give
// (read_heatbath_input), apart from the run itself (app/heatbath_command.cpp).

#include <cstdint>
#include <string>
#include <vector>

#include "app/config.hpp"
#include "app/flow_input.hpp"
#include "core/geometry.hpp"
#include "gauge/gauge_action.hpp"

namespace lqcd::app {

std::vector<KeySpec> heatbath_schema();

struct HeatbathInput {
  Dims dims{};
  GaugeAction action;
  std::string start;
  std::uint64_t seed = 0;
  int thermalization = 0, sweeps = 0, overrelaxation = 0, measure_every = 1;
  std::string prefix, format;
  int precision = 64;
  int save_every = 0, checkpoint_every = 0;
  FlowInput flow;
};

// Every key checked and converted (lqcd::Error naming the file and the key otherwise).
HeatbathInput read_heatbath_input(const Config& c);
// Reads and checks every key of a merged input as run_heatbath does before it starts, and stops there;
// the TOML fuzzer (fuzz/) calls it.
void check_heatbath_input(const Config& c);

}  // namespace lqcd::app
