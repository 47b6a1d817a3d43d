#pragma once
// lqcd bench solver: CG, BiCGStab, GCR, the multi-RHS CG and the multigrid on the even-odd system, with
// iterations, seconds per solve, the true residual and the effective bandwidth.

#include <cstdint>

#include <nlohmann/json.hpp>

#include "app/bench_command.hpp"
#include "core/energy_meter.hpp"
#include "core/geometry.hpp"
#include "solvers/multigrid/multigrid.hpp"

namespace lqcd::app::bench {

// The [multigrid] settings of --multigrid KEY=VALUE, read and checked as the TOML table is.
MultigridParams bench_multigrid_params(const BenchCommandOptions& opt);
// lqcd bench solver.
nlohmann::json solver_bench(const BenchCommandOptions& opt, const Geometry& geom, Location loc, double copy_gbps,
                            EnergyMeter& meter);

}  // namespace lqcd::app::bench
