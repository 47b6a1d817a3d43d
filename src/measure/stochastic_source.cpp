#include "measure/stochastic_source.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/site_random.hpp"
#include "math/gamma.hpp"

namespace lqcd {

NoiseType noise_type_from_name(const std::string& name, const std::string& key) {
  if (name == "z2") return NoiseType::Z2;
  if (name == "z4") return NoiseType::Z4;
  if (name == "u1") return NoiseType::U1;
  throw Error(fmt::format("{}: unknown noise \"{}\" (expected \"z2\", \"z4\" or \"u1\")", key, name));
}

std::string noise_type_name(NoiseType type) {
  switch (type) {
    case NoiseType::Z2: return "z2";
    case NoiseType::Z4: return "z4";
    default: return "u1";
  }
}

namespace {

struct PieceShape {
  int times, spins, colours, classes;  // pieces along each split
  int count() const { return times * spins * colours * classes; }
};

PieceShape piece_shape(const NoiseSpec& spec, const Dims& global) {
  const Dilution& d = spec.dilution;
  if (d.space_stride < 1) throw Error(fmt::format("space_stride = {}: expected at least 1", d.space_stride));
  if (spec.index < 0) throw Error(fmt::format("noise index {}: expected a non-negative index", spec.index));
  for (int mu = 0; mu < 3; ++mu)
    if (d.space_stride > global[mu])
      throw Error(fmt::format("space_stride = {} exceeds the lattice's extent {} in direction {}", d.space_stride,
                              global[mu], mu));
  if (spec.time_slice >= global[3] || spec.time_slice < -1)
    throw Error(fmt::format("time_slice = {} lies outside the lattice's {} time slices", spec.time_slice, global[3]));
  const int s = d.space_stride;
  return {d.time && spec.time_slice < 0 ? global[3] : 1, d.spin ? 4 : 1, d.colour ? 3 : 1, s * s * s};
}

}  // namespace

int dilution_pieces(const NoiseSpec& spec, const Dims& global) {
  return piece_shape(spec, global).count();
}

Complex<double> noise_entry(const NoiseSpec& spec, std::uint64_t global_site, int spin, int colour) {
  // One stream per (noise vector, spin, colour): the vector's index in the 32-bit update word (the
  // substream keeps only 8 bits), spin and colour in the substream from 16 on (the noise walls of
  // sources.cpp use substreams 0..2 with update 0).
  SiteRandom rng(spec.seed, global_site, RngPurpose::Source, 16u + std::uint32_t(spin * 3 + colour),
                 1u + std::uint32_t(spec.index));
  switch (spec.type) {
    case NoiseType::Z2: return Complex<double>((rng.next_u32() & 1) ? -1.0 : 1.0);
    case NoiseType::Z4: return i_power(int(rng.next_u32() & 3), Complex<double>(1.0));  // as the Z4 walls
    default: {
      const double phi = 2 * M_PI * rng.uniform();
      return {std::cos(phi), std::sin(phi)};
    }
  }
}

SpinorField<double> diluted_noise(const NoiseSpec& spec, int piece, const Geometry& geom, Location loc) {
  return local_to_spinor_field(diluted_noise_box(spec, piece, geom), geom, loc);
}

LexicographicSpinor diluted_noise_box(const NoiseSpec& spec, int piece, const Geometry& geom) {
  const PieceShape p = piece_shape(spec, geom.global);
  if (piece < 0 || piece >= p.count()) throw Error(fmt::format("noise piece {} out of range [0, {})", piece, p.count()));
  // piece = ((time * spins + spin) * colours + colour) * classes + class
  const int cls = piece % p.classes, colour_piece = (piece / p.classes) % p.colours,
            spin_piece = (piece / (p.classes * p.colours)) % p.spins, time_piece = piece / (p.classes * p.colours * p.spins);
  const int s = spec.dilution.space_stride;
  const Dims& n = geom.global;
  LexicographicSpinor v(std::size_t(geom.volume()));
  const SiteIndexer idx = SiteIndexer::from(geom);
  for (std::int64_t i = 0; i < geom.volume(); ++i) {
    int x[4];
    idx.coords_lex(i, x);
    for (int mu = 0; mu < 4; ++mu) x[mu] += geom.offset[mu];
    if (spec.time_slice >= 0 && x[3] != spec.time_slice) continue;
    if (p.times > 1 && x[3] != time_piece) continue;
    if ((x[0] % s) + s * ((x[1] % s) + s * (x[2] % s)) != cls) continue;
    const std::uint64_t site = std::uint64_t(x[0]) + std::uint64_t(n[0]) * (std::uint64_t(x[1]) + std::uint64_t(n[1]) *
                                                                            (std::uint64_t(x[2]) + std::uint64_t(n[2]) * std::uint64_t(x[3])));
    for (int sp = 0; sp < 4; ++sp) {
      if (p.spins > 1 && sp != spin_piece) continue;
      for (int c = 0; c < 3; ++c)
        if (p.colours == 1 || c == colour_piece) v[std::size_t(i)].s[sp].c[c] = noise_entry(spec, site, sp, c);
    }
  }
  return v;
}

}  // namespace lqcd
