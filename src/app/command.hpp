#pragma once
// One subcommand of lqcd: its declaration on the command line and what runs it. Each command declares its
// own options in its own file (add_<name>_command in app/<name>_command.cpp), with the options several
// commands share declared once here; main.cpp lists the commands in one table and runs the one given.

#include <functional>
#include <string>

namespace CLI {
class App;
}

namespace lqcd::app {

struct Command {
  CLI::App* app;             // the subcommand, owned by the top-level CLI::App
  std::function<int()> run;  // runs it with the options parsed into its own options object
};

// A TOML-driven command's INPUT file and --print-config.
void add_toml_input(CLI::App* command, std::string& input, bool& print_config);
// --device auto | cpu | gpu.
void add_device_option(CLI::App* command, std::string& device);
// --grid X,Y,Z,T (processes per direction under mpirun).
void add_grid_option(CLI::App* command, std::string& grid);
// -q, --quiet, with what the command then leaves out.
void add_quiet_option(CLI::App* command, bool& quiet, const std::string& help);

}  // namespace lqcd::app
