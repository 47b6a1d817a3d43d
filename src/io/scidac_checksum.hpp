#pragma once
// The SciDAC checksum (USQCD "SciDAC Binary File Format", as implemented by QIO's DML layer): for
// each site with global lexicographic rank r, c = CRC-32 of the site's bytes exactly as stored in the
// file; suma ^= rotl(c, r mod 29) and sumb ^= rotl(c, r mod 31). XOR makes it independent of the
// order in which sites are visited, so parallel writers can accumulate it per node.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace lqcd::io {

struct ScidacChecksum {
  std::uint32_t suma = 0;
  std::uint32_t sumb = 0;
  bool operator==(const ScidacChecksum&) const = default;
};

// Checksum of `data`, a sequence of site records of `site_bytes` each in lexicographic rank order
// (rank = index of the record). data.size() must be a multiple of site_bytes.
ScidacChecksum scidac_checksum(std::span<const std::uint8_t> data, std::size_t site_bytes);

// Adds one site of `site_bytes` bytes with global lexicographic rank `rank` (parallel writers and
// readers: each process adds its sites, the partial sums combine by XOR).
void scidac_checksum_add(ScidacChecksum& sum, const std::uint8_t* site, std::size_t site_bytes, std::uint64_t rank);

// The record text `<scidacChecksum><version>1.0</version><suma>…</suma><sumb>…</sumb></scidacChecksum>`.
std::string scidac_checksum_xml(const ScidacChecksum& sum);

}  // namespace lqcd::io
