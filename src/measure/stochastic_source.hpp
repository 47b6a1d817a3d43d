#pragma once
// Stochastic (noise) sources with dilution (issue 49). A noise vector eta(x, spin, colour) has entries of
// unit modulus drawn independently, so that E[eta_i eta_j^*] = delta_ij and M^-1 = E[(M^-1 eta) eta^dag]:
//   Z2:   +-1, each with probability 1/2
//   Z4:   +-1, +-i, each with probability 1/4
//   U(1): e^{i phi}, phi uniform in [0, 2 pi)
// Dilution (J. Foley et al., Comput. Phys. Commun. 172 (2005) 145) splits eta into pieces eta_k supported
// on disjoint index sets that together cover it: each time slice, each spin, each colour, and in space the
// sites of one class of (x mod s, y mod s, z mod s) for a stride s. Summing the estimates of the pieces
// removes the noise's off-diagonal terms between different pieces; with every index in its own piece
// (time, spin, colour and s = L) a single noise vector gives the exact diagonal of M^-1.
// The entries are drawn from the counter-based generator keyed by (seed, noise index, global site), so
// every backend and process grid draws the same vector.

#include <cstdint>
#include <string>

#include "fields/spinor_field.hpp"

namespace lqcd {

enum class NoiseType { Z2, Z4, U1 };
// "z2" | "z4" | "u1"; throws lqcd::Error naming `key` otherwise.
NoiseType noise_type_from_name(const std::string& name, const std::string& key);
std::string noise_type_name(NoiseType type);

struct Dilution {
  bool time = false;
  bool spin = false;
  bool colour = false;
  int space_stride = 1;  // s: the sites split into s^3 classes by (x mod s, y mod s, z mod s); 1: none
};

struct NoiseSpec {
  NoiseType type = NoiseType::Z2;
  std::uint64_t seed = 1;
  int index = 0;        // which noise vector
  Dilution dilution;
  int time_slice = -1;  // >= 0: the noise lives on this time slice only (one-end trick); -1: everywhere
};

// The number of pieces eta_k (1 without dilution). Throws lqcd::Error naming the field at fault when the
// space stride is < 1 or larger than a spatial extent, or the time slice lies outside the lattice.
int dilution_pieces(const NoiseSpec& spec, const Dims& global);

// eta(x, spin, colour) of the spec's noise vector at a global site (lexicographic in the global lattice).
Complex<double> noise_entry(const NoiseSpec& spec, std::uint64_t global_site, int spin, int colour);

// Piece k of the diluted noise vector on geom (this process's box), zero outside the piece; the pieces
// sum to the whole noise vector. The box's sites in its lexicographic order, or as a field.
LexicographicSpinor diluted_noise_box(const NoiseSpec& spec, int piece, const Geometry& geom);
SpinorField<double> diluted_noise(const NoiseSpec& spec, int piece, const Geometry& geom, Location loc);

}  // namespace lqcd
