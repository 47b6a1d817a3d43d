#pragma once
// lqcd convert: configuration format conversion (the input's checksum and header verified first),
// optionally tiling the lattice periodically.

#include <string>

namespace lqcd::app {

struct ConvertCommandOptions {
  std::string input;
  std::string output;
  std::string format = "ildg";
  int precision = 0;  // 0: as stored in the input
  std::string tile;  // "NX,NY,NZ,NT" copies per direction; empty: none
  bool force = false;
};

int run_convert(const ConvertCommandOptions& options);

}  // namespace lqcd::app
