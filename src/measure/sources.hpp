#pragma once
// Quark sources: point sources, Z2 / Z4 noise wall sources and (in a fixed gauge) plain wall sources and
// Gaussian wavefunction sources, one per source spin and colour (full spin-colour dilution), so that 12
// solves give the propagator of the source.

#include <array>
#include <cstdint>
#include <string>

#include "fields/spinor_field.hpp"

namespace lqcd {

enum class SourceType { Point, Z2Wall, Z4Wall, Wall, GaussianWavefunction };

struct SourceSpec {
  SourceType type = SourceType::Point;
  std::array<int, 4> position{};  // point: the site; walls: position[3] is the time slice; gaussian
                                  // wavefunction: the centre (a site) on time slice position[3]
  std::uint64_t seed = 1;         // noise of the wall sources
  double radius = 2.0;            // r0 of the gaussian wavefunction source (lattice units, > 0)
};

// "point" | "z2_wall" | "z4_wall" | "wall" | "gaussian_wavefunction"; throws lqcd::Error naming `key`
// otherwise.
SourceType source_type_from_name(const std::string& name, const std::string& key = "source.type");
// Throws lqcd::Error naming `key` when the position lies outside the lattice (walls: only the time
// slice; point and gaussian wavefunction: all four coordinates).
void check_source_position(const SourceSpec& spec, const Dims& dims, const std::string& key = "source.position");
// Throws lqcd::Error naming `key` unless the gaussian wavefunction's radius is finite and > 0.
void check_source_radius(double radius, const std::string& key = "source.radius");

// The source of spin s and colour c: point: 1 at the site; wall: 1 on every site of the time slice
// (not gauge invariant: meaningful in Coulomb gauge, as Chroma's and MILC's wall sources); noise walls:
// the same noise eta(x_spatial) on every site of the time slice (Z2: +-1, each with probability 1/2; Z4: +-1, +-i, each with probability 1/4; drawn
// from the counter-based generator keyed by the seed, so every backend and process grid agrees);
// gaussian wavefunction: exp(-r^2 / r0^2) on the time slice, r the periodic (minimal-image) spatial
// distance from the centre, r0 = radius: MILC's "gaussian" source in Coulomb gauge, a smooth
// wavefunction standing in for the hadron's, not gauge invariant either (meaningful in Coulomb gauge).
// Throws lqcd::Error naming source.radius unless the radius is finite and > 0.
SpinorField<double> make_source(const SourceSpec& spec, const Geometry& geom, Location loc, int spin, int colour);

// The gaussian wavefunction's value exp(-r^2 / r0^2) at the global site x for the centre c (their spatial
// coordinates, r the minimal-image distance on the periodic lattice `global`), r0 = radius: the source
// above and MILC's wavefunction sink (measure/sink_operators.hpp).
double gaussian_wavefunction(const int x[4], const std::array<int, 4>& centre, const Dims& global, double radius);

}  // namespace lqcd
