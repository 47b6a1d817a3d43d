#pragma once
// CRC-32 as in ISO 3309 / ITU-T V.42 (reflected polynomial 0xEDB88320, initial value and final XOR
// 0xFFFFFFFF) — the CRC that zlib's crc32() computes and that the SciDAC checksum (QIO, USQCD
// "SciDAC Binary File Format") applies to every site's record. Written here so that the I/O layer
// does not depend on zlib.

#include <cstddef>
#include <cstdint>

namespace lqcd::io {

// CRC-32 of n bytes. `crc` continues a running CRC (pass the previous result); 0 starts a new one,
// so crc32(b, n2, crc32(a, n1)) == crc32(a followed by b).
std::uint32_t crc32(const void* data, std::size_t n, std::uint32_t crc = 0);

}  // namespace lqcd::io
