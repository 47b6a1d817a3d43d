#pragma once
// lqcd convert: configuration format conversion (the input's checksum and header verified first),
// optionally tiling the lattice periodically.

#include <string>

#include "app/command.hpp"

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

// lqcd convert: its options on the command line, and what runs it (app/command.hpp).
Command add_convert_command(CLI::App& lqcd);

}  // namespace lqcd::app
