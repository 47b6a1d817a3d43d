#pragma once
// lqcd bench distill: the distillation contraction against the GEMM peak, and the Laplacian eigenvectors.

#include <cstdint>

#include <nlohmann/json.hpp>

#include "app/bench_command.hpp"
#include "core/energy_meter.hpp"
#include "core/geometry.hpp"
#include "core/memory.hpp"

namespace lqcd::app::bench {

nlohmann::json distill_bench(const BenchCommandOptions& opt, Location loc);

}  // namespace lqcd::app::bench
