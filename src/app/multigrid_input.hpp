#pragma once
// The [multigrid] table of the inputs that solve with solver.type = "multigrid" (lqcd propagator,
// lqcd spectrum): the parameters of solvers/multigrid/multigrid.hpp, every key with its default.

#include <vector>

#include "app/config.hpp"
#include "solvers/multigrid/multigrid.hpp"

namespace lqcd::app {

std::vector<KeySpec> multigrid_schema();

// Validates every key (errors name the input file and the key).
MultigridParams read_multigrid_params(const Config& c);
// Throws naming c's file and multigrid.block (or coarse_block, three levels) when the aggregates do not
// tile the lattice `dims`.
void check_multigrid_blocks(const Config& c, const Dims& dims, const MultigridParams& p);

}  // namespace lqcd::app
