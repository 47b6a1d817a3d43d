#pragma once
// Quark sources: point sources, Z2 / Z4 noise wall sources and (in a fixed gauge) plain wall sources,
// one per source spin and colour (full spin-colour dilution), so that 12 solves give the propagator of
// the source.

#include <array>
#include <cstdint>
#include <string>

#include "fields/spinor_field.hpp"

namespace lqcd {

enum class SourceType { Point, Z2Wall, Z4Wall, Wall };

struct SourceSpec {
  SourceType type = SourceType::Point;
  std::array<int, 4> position{};  // point: the site; walls: position[3] is the time slice
  std::uint64_t seed = 1;         // noise of the wall sources
};

// "point" | "z2_wall" | "z4_wall" | "wall"; throws lqcd::Error naming `key` otherwise.
SourceType source_type_from_name(const std::string& name, const std::string& key = "source.type");
// Throws lqcd::Error naming `key` when the position lies outside the lattice.
void check_source_position(const SourceSpec& spec, const Dims& dims, const std::string& key = "source.position");

// The source of spin s and colour c: point: 1 at the site; wall: 1 on every site of the time slice
// (not gauge invariant: meaningful in Coulomb gauge, as Chroma's and MILC's wall sources); noise walls:
// the same noise eta(x_spatial) on every site of the time slice (Z2: +-1, Z4: +-1, +-i, each with probability 1/4 resp. 1/2, drawn
// from the counter-based generator keyed by the seed, so every backend and process grid agrees).
SpinorField<double> make_source(const SourceSpec& spec, const Geometry& geom, Location loc, int spin, int colour);

}  // namespace lqcd
