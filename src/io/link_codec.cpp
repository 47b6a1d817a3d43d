#include "io/link_codec.hpp"

#include <cmath>

#include "core/error.hpp"

namespace lqcd::io {

double load_real(const std::uint8_t* p, RealFormat f) {
  return f.bytes == 4 ? double(load_f32(p, f.order)) : load_f64(p, f.order);
}

void store_real(std::uint8_t* p, double v, RealFormat f) {
  if (f.bytes == 4)
    store_f32(p, float(v), f.order);
  else
    store_f64(p, v, f.order);
}

bool decode_link(const std::uint8_t* p, RealFormat f, int rows, SU3<double>& u) {
  bool finite = true;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < 3; ++j) {
      const double re = load_real(p, f);
      const double im = load_real(p + f.bytes, f);
      p += 2 * f.bytes;
      finite = finite && std::isfinite(re) && std::isfinite(im);
      u.m[i][j] = Complex<double>(re, im);
    }
  if (rows == 2) {
    // row2 = (row0 x row1)^*: unitarity makes the rows orthonormal, det U = 1 fixes the phase.
    const auto& a = u.m[0];
    const auto& b = u.m[1];
    u.m[2][0] = conj(a[1] * b[2] - a[2] * b[1]);
    u.m[2][1] = conj(a[2] * b[0] - a[0] * b[2]);
    u.m[2][2] = conj(a[0] * b[1] - a[1] * b[0]);
  }
  return finite;
}

void encode_link(std::uint8_t* p, const SU3<double>& u, RealFormat f, int rows) {
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < 3; ++j) {
      store_real(p, u.m[i][j].re, f);
      store_real(p + f.bytes, u.m[i][j].im, f);
      p += 2 * f.bytes;
    }
}

void fail_non_finite(const std::filesystem::path& path, const Dims& dims, std::int64_t site, int mu) {
  std::int64_t r = site;
  int x[4];
  for (int d = 0; d < 4; ++d) {
    x[d] = int(r % dims[d]);
    r /= dims[d];
  }
  fail("{}: non-finite value (NaN or Inf) in the link data at site {} (x,y,z,t = {},{},{},{}), mu = {}",
       path.string(), site, x[0], x[1], x[2], x[3], mu);
}

void check_dims(const Dims& dims, const std::filesystem::path& path, const char* source) {
  for (int d = 0; d < 4; ++d)
    if (dims[d] < 1)
      fail("{}: invalid lattice dimensions {}x{}x{}x{} from {} (each extent must be >= 1)", path.string(),
           dims[0], dims[1], dims[2], dims[3], source);
  // 2^40 sites is far beyond any single file; the bound keeps every byte count below 2^63.
  const double volume = double(dims[0]) * dims[1] * dims[2] * dims[3];
  if (volume > 1099511627776.0)
    fail("{}: lattice dimensions {}x{}x{}x{} from {} are implausibly large", path.string(), dims[0],
         dims[1], dims[2], dims[3], source);
}

void check_field(const LexicographicGauge& field, const std::filesystem::path& path) {
  check_dims(field.dims, path, "the field to write");
  if (field.links.size() != std::size_t(field.volume()) * 4)
    fail("{}: the field to write has {} links, but dims {}x{}x{}x{} need {}", path.string(),
         field.links.size(), field.dims[0], field.dims[1], field.dims[2], field.dims[3], field.volume() * 4);
  // A NaN written would make a file that every reader (ours included) rejects: refuse it here.
  for (std::size_t i = 0; i < field.links.size(); ++i)
    for (const auto& row : field.links[i].m)
      for (const auto& z : row)
        if (!std::isfinite(z.re) || !std::isfinite(z.im))
          fail("{}: refusing to write a non-finite value (NaN or Inf) at site {}, mu = {}", path.string(),
               i / 4, i % 4);
}

LexicographicGauge decode_site_major(std::span<const std::uint8_t> data, const Dims& dims, RealFormat f,
                                     int rows, const std::filesystem::path& path) {
  LexicographicGauge field(dims);
  const std::size_t link_bytes = std::size_t(reals_per_link(rows)) * f.bytes;
  const std::int64_t volume = field.volume();
  for (std::int64_t site = 0; site < volume; ++site)
    for (int mu = 0; mu < 4; ++mu) {
      const std::uint8_t* p = data.data() + (std::size_t(site) * 4 + mu) * link_bytes;
      if (!decode_link(p, f, rows, field(site, mu))) fail_non_finite(path, dims, site, mu);
    }
  return field;
}

Bytes encode_site_major(const LexicographicGauge& field, RealFormat f, int rows) {
  const std::size_t link_bytes = std::size_t(reals_per_link(rows)) * f.bytes;
  Bytes data(field.links.size() * link_bytes);
  for (std::size_t i = 0; i < field.links.size(); ++i) encode_link(data.data() + i * link_bytes, field.links[i], f, rows);
  return data;
}

}  // namespace lqcd::io
