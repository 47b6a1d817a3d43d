#pragma once
// ILDG and SciDAC gauge configurations (LIME containers).
//
// Reading (ILDG binary file format, ILDG metadata working group, and the USQCD SciDAC/QIO layout):
//   binary data   record `ildg-binary-data`, or `scidac-binary-data` in SciDAC/QIO files without
//                 ILDG records; per site (lexicographic, x fastest) the 4 links mu = 0..3, each a
//                 row-major 3x3 complex matrix, big-endian IEEE single or double;
//   dims, prec.   `ildg-format` (<lx>..<lt>, <precision>32|64), else `scidac-private-file-xml`
//                 (<dims>) with `scidac-private-record-xml` (<precision>F|D);
//   checksum      `scidac-checksum` (<suma>, <sumb>, see scidac_checksum.hpp);
//   info          `xlf-info` (tmLQCD/CL2QCD "key = value" lines; `plaquette` normalised to 1),
//                 `ildg-data-lfn`, `scidac-file-xml`, `scidac-record-xml` (kept as metadata).
// All other records are skipped. format = "ildg" if an `ildg-format` record exists, else "scidac".
//
// Writing (QIO's record order and XML, so that QIO-based readers — Chroma, MILC — find their records
// in the messages where they expect them; pure ILDG readers look records up by type):
//   message 1: scidac-private-file-xml, scidac-file-xml
//   message 2: scidac-private-record-xml, scidac-record-xml, ildg-format, ildg-data-lfn,
//              ildg-binary-data, scidac-checksum
//   message 3 (only if there is a plaquette or other metadata): xlf-info
// Metadata keys named after a record (`scidac-file-xml`, `scidac-record-xml`, `ildg-data-lfn`)
// supply that record's text; every other key becomes a `key = value` line of `xlf-info`.

#include <filesystem>
#include <span>

#include "io/gauge_file.hpp"

namespace lqcd::io {

// Reads an ILDG/SciDAC file already held in memory (`path` is used in messages).
GaugeFile read_ildg(std::span<const std::uint8_t> file, const std::filesystem::path& path);
// This process's part (collective; see read_gauge_file_part): record headers and text records read by
// every rank, the binary record's data of the box with MPI-IO, the SciDAC checksum combined.
GaugeFilePart read_ildg_part(const std::filesystem::path& path, const Decomposition& decompose);

}  // namespace lqcd::io
