#pragma once
// MILC binary gauge configurations, version 5 (MILC code, generic/io_lat4.c; reading only).
//   int32 magic 20103 — its byte order is the file's byte order;
//   int32 dims[4] (x, y, z, t);  char time_stamp[64];
//   int32 order (0 = natural lexicographic; other values announce a site list: not supported);
//   uint32 sum29, uint32 sum31  — 96 bytes in all;
// then per site (lexicographic, x fastest) the 4 links mu = 0..3, each a float32 row-major 3x3
// complex matrix in the file's byte order.
//
// Checksum (MILC's checksum_add): the site with rank r contributes its 72 32-bit words w_k, taken in
// native byte order, as sum29 ^= rotl(w_k, rank29), sum31 ^= rotl(w_k, rank31), where rank29 starts
// at (72 r) mod 29 and rank31 at (72 r) mod 31 and both advance by one per word, wrapping at 29 and 31.
// Plaquettes are not stored in the binary file (the `.info` file beside it has them, in MILC's 3x
// normalisation; it is not read).

#include <cstdint>
#include <filesystem>
#include <span>

#include "io/byte_order.hpp"
#include "io/gauge_file.hpp"

namespace lqcd::io {

constexpr std::int32_t kMilcMagic = 20103;
constexpr std::size_t kMilcHeaderBytes = 96;

struct MilcChecksum {
  std::uint32_t sum29 = 0;
  std::uint32_t sum31 = 0;
  bool operator==(const MilcChecksum&) const = default;
};

// Checksum of the link data (sites of 4 float32 3x3 complex matrices) stored in byte order `order`.
MilcChecksum milc_checksum(std::span<const std::uint8_t> data, ByteOrder order);

GaugeFile read_milc(std::span<const std::uint8_t> file, const std::filesystem::path& path);

}  // namespace lqcd::io
