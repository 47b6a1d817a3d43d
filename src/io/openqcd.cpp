#include "io/openqcd.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "io/byte_order.hpp"
#include "io/link_codec.hpp"

namespace lqcd::io {

namespace {

constexpr RealFormat kReal{8, ByteOrder::little};
constexpr std::size_t kLinkBytes = 18 * 8;

// openQCD direction (0 = t, 1..3 = x, y, z) -> our direction (0..3 = x, y, z, t).
constexpr int our_mu(int openqcd_mu) { return openqcd_mu == 0 ? 3 : openqcd_mu - 1; }

// Visits the links in file order: fn(file_link_index, our_site, our_mu). Both the reader and the
// writer use it, so they cannot disagree about the order.
template <typename Fn>
void for_each_file_link(const Dims& dims, Fn&& fn) {
  // openQCD extents: N0 = t, N1 = x, N2 = y, N3 = z.
  const int n[4] = {dims[3], dims[0], dims[1], dims[2]};
  std::size_t link = 0;
  for (int x0 = 0; x0 < n[0]; ++x0)
    for (int x1 = 0; x1 < n[1]; ++x1)
      for (int x2 = 0; x2 < n[2]; ++x2)
        for (int x3 = 0; x3 < n[3]; ++x3) {
          if (((x0 + x1 + x2 + x3) & 1) == 0) continue;  // only odd sites carry links in the file
          const int xo[4] = {x0, x1, x2, x3};
          for (int mu = 0; mu < 4; ++mu) {
            for (int back = 0; back < 2; ++back) {
              int y[4] = {xo[0], xo[1], xo[2], xo[3]};
              if (back) y[mu] = (y[mu] + n[mu] - 1) % n[mu];  // x - mu^, periodic
              // Our lexicographic index: x + Lx (y + Ly (z + Lz t)) with (x,y,z,t) = (y1,y2,y3,y0).
              const std::int64_t site =
                  y[1] + std::int64_t(dims[0]) * (y[2] + std::int64_t(dims[1]) * (y[3] + std::int64_t(dims[2]) * y[0]));
              fn(link++, site, our_mu(mu));
            }
          }
        }
}

void check_even(const Dims& dims, const std::filesystem::path& path) {
  for (int mu = 0; mu < 4; ++mu)
    if (dims[mu] % 2 != 0)
      fail("{}: openQCD needs even lattice extents, got {}x{}x{}x{}", path.string(), dims[0], dims[1], dims[2],
           dims[3]);
}

}  // namespace

std::uint64_t openqcd_file_size(const Dims& dims) {
  for (int mu = 0; mu < 4; ++mu)
    if (dims[mu] < 2 || dims[mu] % 2 != 0 || dims[mu] > (1 << 20)) return 0;
  const double volume = double(dims[0]) * dims[1] * dims[2] * dims[3];
  if (volume > 1099511627776.0) return 0;  // 2^40 sites: beyond any real file, keeps sizes in range
  const std::uint64_t v = std::uint64_t(dims[0]) * dims[1] * dims[2] * dims[3];
  return kOpenqcdHeaderBytes + v / 2 * 8 * kLinkBytes;
}

GaugeFile read_openqcd(std::span<const std::uint8_t> file, const std::filesystem::path& path) {
  if (file.size() < kOpenqcdHeaderBytes)
    fail("{}: truncated openQCD header: {} bytes, expected at least {}", path.string(), file.size(),
         kOpenqcdHeaderBytes);
  GaugeFile g;
  GaugeFileInfo& info = g.info;
  info.format = "openqcd";
  info.precision_bits = 64;
  const std::int32_t n0 = load_i32(file.data(), ByteOrder::little);
  info.dims = {load_i32(file.data() + 4, ByteOrder::little), load_i32(file.data() + 8, ByteOrder::little),
               load_i32(file.data() + 12, ByteOrder::little), n0};
  check_dims(info.dims, path, "the openQCD header");
  check_even(info.dims, path);
  const std::uint64_t expected = openqcd_file_size(info.dims);
  if (expected == 0 || file.size() != expected)
    fail("{}: openQCD file has {} bytes, but the header's N0..N3 = {},{},{},{} need {}", path.string(),
         file.size(), n0, info.dims[0], info.dims[1], info.dims[2], expected);

  const double plaq = load_f64(file.data() + 16, ByteOrder::little);
  if (!std::isfinite(plaq)) fail("{}: openQCD header plaquette is not finite", path.string());
  info.header_plaquette = plaq / 3.0;  // openQCD: <Re tr U_p> without 1/3
  info.checksum_detail = "openQCD files carry no checksum";

  g.field = LexicographicGauge(info.dims);
  const std::uint8_t* data = file.data() + kOpenqcdHeaderBytes;
  for_each_file_link(info.dims, [&](std::size_t link, std::int64_t site, int mu) {
    if (!decode_link(data + link * kLinkBytes, kReal, 3, g.field(site, mu))) fail_non_finite(path, info.dims, site, mu);
  });
  return g;
}

void write_openqcd(const std::filesystem::path& path, const LexicographicGauge& field, const WriteOptions& options) {
  check_field(field, path);
  check_even(field.dims, path);
  if (options.precision_bits != 64)
    fail("{}: openQCD files are double precision; precision_bits = {} is not supported", path.string(),
         options.precision_bits);
  // The header plaquette is part of the format and openQCD's import_cnfg checks it against the
  // field, so a made-up value would make the file unreadable there: require the caller's.
  if (!options.plaquette)
    fail("{}: the openQCD header needs the plaquette (WriteOptions::plaquette is not set)", path.string());
  if (!std::isfinite(*options.plaquette))
    fail("{}: the openQCD header plaquette must be finite", path.string());

  const Dims& d = field.dims;
  Bytes bytes(openqcd_file_size(d));
  const std::int32_t n[4] = {d[3], d[0], d[1], d[2]};
  for (int k = 0; k < 4; ++k) store_uint(bytes.data() + 4 * k, std::uint32_t(n[k]), ByteOrder::little);
  store_f64(bytes.data() + 16, 3.0 * *options.plaquette, ByteOrder::little);
  std::uint8_t* data = bytes.data() + kOpenqcdHeaderBytes;
  for_each_file_link(d, [&](std::size_t link, std::int64_t site, int mu) {
    encode_link(data + link * kLinkBytes, field(site, mu), kReal);
  });

  AtomicFile out(path);
  out.write(bytes.data(), bytes.size());
  out.commit();
}

}  // namespace lqcd::io
