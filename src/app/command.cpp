#include "app/command.hpp"

#include <CLI/CLI.hpp>

namespace lqcd::app {

void add_toml_input(CLI::App* command, std::string& input, bool& print_config) {
  command->add_option("input", input, "TOML input file (lqcd " + command->get_name() + " --print-config shows every key)")
      ->check(CLI::ExistingFile);
  command->add_flag("--print-config", print_config, "print the full input with every key, its value and help");
}

void add_device_option(CLI::App* command, std::string& device) {
  command->add_option("--device", device, "auto | cpu | gpu")->capture_default_str();
}

void add_grid_option(CLI::App* command, std::string& grid) {
  command->add_option("--grid", grid,
                      "processes per direction X,Y,Z,T (run under mpirun -np X*Y*Z*T, one GPU per rank; default: all "
                      "along t)");
}

void add_quiet_option(CLI::App* command, bool& quiet, const std::string& help) {
  command->add_flag("-q,--quiet", quiet, help);
}

}  // namespace lqcd::app
