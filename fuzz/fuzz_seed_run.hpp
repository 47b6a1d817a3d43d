#pragma once
// The run whose checkpoints seed the checkpoint fuzzer: make_seeds.cpp writes them with these
// metadata, checkpoint_reader_fuzzer.cpp resumes with these expectations (as lqcd heatbath does).

#include <string>
#include <utility>
#include <vector>

#include "core/geometry.hpp"

namespace lqcd::fuzz {

// 2^4: the load verifies the links and computes the gauge observables, which must stay fast.
inline constexpr Dims kSeedRunDims = {2, 2, 2, 2};

// (key, value) pairs a heatbath run checks on --resume (heatbath_command.cpp): action, beta, seed.
inline std::vector<std::pair<std::string, std::string>> seed_run_parameters() {
  return {{"lqcd.action", "wilson"}, {"lqcd.beta", "6"}, {"lqcd.seed", "12345"}};
}

}  // namespace lqcd::fuzz
