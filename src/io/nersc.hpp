#pragma once
// NERSC archive gauge configurations (the "Gauge Connection" format, NERSC/QCDOC, also written by
// MILC, Grid, CPS, QCDLoop):
//   BEGIN_HEADER
//   KEY = VALUE          (HDR_VERSION, DATATYPE, DIMENSION_1..4, CHECKSUM, LINK_TRACE, PLAQUETTE,
//   ...                   FLOATING_POINT, BOUNDARY_1..4, ENSEMBLE_ID, SEQUENCE_NUMBER, ...)
//   END_HEADER
// followed by the binary data: per site (lexicographic, x fastest) mu = 0..3, each link a row-major
// complex matrix, all 3 rows for DATATYPE = 4D_SU3_GAUGE_3x3 or the first 2 rows for 4D_SU3_GAUGE
// (the third is rebuilt as (row0 x row1)^*). FLOATING_POINT = IEEE32BIG | IEEE32LITTLE | IEEE64BIG |
// IEEE64LITTLE (IEEE32 and IEEE64 alone mean big-endian).
//
// CHECKSUM: the 32-bit unsigned sum (mod 2^32) of all 32-bit words of the data as stored (2 or 3
// rows), taken after conversion to native byte order; a double contributes its two 32-bit halves.
// This is what MILC (generic/nersc_cksum.c, over the two stored rows in single precision), Grid and
// QCDLoop compute; the sum of a double's halves does not depend on the host's byte order.
// LINK_TRACE = <Re tr U>/3 and PLAQUETTE = <Re tr U_p>/3, both 1 for the unit field.

#include <cstdint>
#include <filesystem>
#include <span>

#include "io/gauge_file.hpp"
#include "io/link_codec.hpp"

namespace lqcd::io {

GaugeFile read_nersc(std::span<const std::uint8_t> file, const std::filesystem::path& path);
// This process's part (collective; see read_gauge_file_part): the header read by every rank, the data
// of the box with MPI-IO, the checksum combined.
GaugeFilePart read_nersc_part(const std::filesystem::path& path, const Decomposition& decompose);

// The NERSC checksum of stored data in the given real format (see above).
std::uint32_t nersc_checksum(std::span<const std::uint8_t> data, RealFormat f);

}  // namespace lqcd::io
