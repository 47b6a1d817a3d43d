#include "io/scidac_checksum.hpp"

#include <bit>

#include <fmt/format.h>

#include "io/crc32.hpp"

namespace lqcd::io {

void scidac_checksum_add(ScidacChecksum& sum, const std::uint8_t* site, std::size_t site_bytes, std::uint64_t rank) {
  const std::uint32_t c = crc32(site, site_bytes);
  sum.suma ^= std::rotl(c, int(rank % 29));
  sum.sumb ^= std::rotl(c, int(rank % 31));
}

ScidacChecksum scidac_checksum(std::span<const std::uint8_t> data, std::size_t site_bytes) {
  ScidacChecksum sum;
  const std::size_t sites = data.size() / site_bytes;
  for (std::size_t rank = 0; rank < sites; ++rank) scidac_checksum_add(sum, data.data() + rank * site_bytes, site_bytes, rank);
  return sum;
}

std::string scidac_checksum_xml(const ScidacChecksum& sum) {
  // QIO's layout (hex without leading zeros, as QIO prints with %x).
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?><scidacChecksum><version>1.0</version>"
      "<suma>{:x}</suma><sumb>{:x}</sumb></scidacChecksum>",
      sum.suma, sum.sumb);
}

}  // namespace lqcd::io
