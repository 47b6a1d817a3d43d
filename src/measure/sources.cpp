#include "measure/sources.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/site_random.hpp"
#include "math/gamma.hpp"

namespace lqcd {

SourceType source_type_from_name(const std::string& name, const std::string& key) {
  if (name == "point") return SourceType::Point;
  if (name == "z2_wall") return SourceType::Z2Wall;
  if (name == "z4_wall") return SourceType::Z4Wall;
  if (name == "wall") return SourceType::Wall;
  if (name == "gaussian_wavefunction") return SourceType::GaussianWavefunction;
  fail("{}: unknown source type \"{}\" (expected \"point\", \"wall\", \"gaussian_wavefunction\", \"z2_wall\" or "
       "\"z4_wall\")",
       key, name);
}

void check_source_radius(double radius, const std::string& key) {
  if (!(std::isfinite(radius) && radius > 0)) fail("{}: expected a finite number > 0, got {}", key, radius);
}

void check_source_position(const SourceSpec& spec, const Dims& dims, const std::string& key) {
  for (int mu = 0; mu < 4; ++mu) {
    // The gaussian wavefunction's centre is a site, as a point source's.
    const bool site = spec.type == SourceType::Point || spec.type == SourceType::GaussianWavefunction;
    if (!site && mu < 3) continue;
    if (spec.position[std::size_t(mu)] < 0 || spec.position[std::size_t(mu)] >= dims[mu])
      fail("{}: [{}, {}, {}, {}] lies outside the {} lattice", key, spec.position[0], spec.position[1],
           spec.position[2], spec.position[3], dims_string(dims));
  }
}

SpinorField<double> make_source(const SourceSpec& spec, const Geometry& geom, Location loc, int spin, int colour) {
  check_source_position(spec, geom.global);
  if (spec.type == SourceType::GaussianWavefunction) check_source_radius(spec.radius);
  // This process's box only: on a decomposed lattice the rank that owns the point (or the part of the
  // wall's time slice in its box) sets it; positions and noise keys are global coordinates.
  LexicographicSpinor v(std::size_t(geom.volume()));
  const SiteIndexer idx = SiteIndexer::from(geom);
  for (std::int64_t i = 0; i < geom.volume(); ++i) {
    int x[4];
    idx.coords_lex(i, x);
    bool on_source;
    if (spec.type == SourceType::Point) {
      on_source = true;
      for (int mu = 0; mu < 4; ++mu) on_source = on_source && x[mu] + geom.offset[mu] == spec.position[std::size_t(mu)];
    } else {
      on_source = x[3] + geom.offset[3] == spec.position[3];
    }
    if (!on_source) continue;
    Complex<double> value(1.0);
    if (spec.type == SourceType::GaussianWavefunction) {
      // MILC's "gaussian" source (generic/quark_source.c, gaussian_source), used in Coulomb gauge; the
      // minimal image on the global lattice: a centre near a face reaches across it, and every process
      // grid sets the same values.
      const int global_x[4] = {x[0] + geom.offset[0], x[1] + geom.offset[1], x[2] + geom.offset[2], x[3] + geom.offset[3]};
      value = Complex<double>(gaussian_wavefunction(global_x, spec.position, geom.global, spec.radius));
    } else if (spec.type == SourceType::Z2Wall || spec.type == SourceType::Z4Wall) {
      // The noise depends on the global spatial site only (key: its lexicographic index at t = 0), so
      // every process grid draws the same wall whichever rank holds the time slice.
      const std::uint64_t gx = std::uint64_t(x[0] + geom.offset[0]), gy = std::uint64_t(x[1] + geom.offset[1]),
                          gz = std::uint64_t(x[2] + geom.offset[2]);
      const std::uint64_t spatial = gx + std::uint64_t(geom.global[0]) * (gy + std::uint64_t(geom.global[1]) * gz);
      SiteRandom rng(spec.seed, spatial, RngPurpose::Source, std::uint32_t(colour), 0);
      const std::uint32_t r = rng.next_u32();
      if (spec.type == SourceType::Z2Wall) value = Complex<double>((r & 1) ? -1.0 : 1.0);
      else value = i_power(int(r & 3), Complex<double>(1.0));
    }
    v[std::size_t(i)].s[spin].c[colour] = value;
  }
  return local_to_spinor_field(v, geom, loc);
}

double gaussian_wavefunction(const int x[4], const std::array<int, 4>& centre, const Dims& global, double radius) {
  double r2 = 0;
  for (int mu = 0; mu < 3; ++mu) {
    const int n = global[std::size_t(mu)];
    const int d = ((x[mu] - centre[std::size_t(mu)]) % n + n) % n;
    const int dmin = std::min(d, n - d);
    r2 += double(dmin) * dmin;
  }
  return std::exp(-r2 / (radius * radius));
}

}  // namespace lqcd
