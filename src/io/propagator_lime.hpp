#pragma once
// Quark propagators in the SciDAC/QIO LIME layout (USQCD's file format for fermion fields): one
// file message, then one message per source spin-colour component (12) with a private record
// (datatype USQCD_D3_DiracFermion, 64-bit, 3 colours, 4 spins, typesize 192), a user record naming
// the component, the binary data (per site in lexicographic order, spin-major 4 x 3 complex,
// big-endian) and its SciDAC checksum. Written atomically.

#include <array>
#include <filesystem>
#include <string>

#include "fields/spinor_field.hpp"

namespace lqcd::io {

struct PropagatorFile {
  Dims dims{};
  std::array<LexicographicSpinor, 12> columns;  // column spin * 3 + colour of the source
  std::string file_xml;                         // user metadata of the file message
};

void write_propagator_lime(const std::filesystem::path& path, const PropagatorFile& prop);
// Verifies sizes and every checksum (lqcd::Error naming the file and the component otherwise).
PropagatorFile read_propagator_lime(const std::filesystem::path& path);

}  // namespace lqcd::io
