#pragma once
// lqcd bench dslash and matpc: the hopping term and the even-odd operators, one or several right-hand
// sides, with their byte and FLOP counts, the face exchange's parts and the difference to double.

#include <cstdint>

#include <nlohmann/json.hpp>

#include "app/bench_command.hpp"
#include "core/energy_meter.hpp"
#include "core/geometry.hpp"
#include "fields/gauge_field.hpp"
#include "fields/spinor_field.hpp"

namespace lqcd::app::bench {

// A Gaussian random spinor (seeded by site, so the same on any process grid).
SpinorField<double> gaussian_spinor(const Geometry& geom, Location loc, std::uint64_t seed);
// --config's links, or Haar-random ones without it.
GaugeField<double> benchmark_links(const BenchCommandOptions& opt, const Geometry& geom, Location loc);
// Whether the multi-RHS dslash is built for --reconstruct and --precision.
bool multi_rhs_storage_available(const BenchCommandOptions& opt);
// lqcd bench dslash / matpc with the options as given (--rhs, --reconstruct, --precision).
nlohmann::json dirac_bench_as_asked(const BenchCommandOptions& opt, const Geometry& geom, Location loc,
                                    double copy_gbps, EnergyMeter& meter);

}  // namespace lqcd::app::bench
