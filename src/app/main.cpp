// lqcd: one program, one subcommand per job (DESIGN.md). Every failure the user can fix ends in a
// one-line "lqcd: error: ..." on stderr and a non-zero exit status.
#include <csignal>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/bench_command.hpp"
#include "app/command.hpp"
#include "app/openmp_defaults.hpp"
#include "app/convert_command.hpp"
#include "app/heatbath_command.hpp"
#include "app/hmc_command.hpp"
#include "app/flow_command.hpp"
#include "app/measure_command.hpp"
#include "app/smear_command.hpp"
#include "app/gaugefix_command.hpp"
#include "app/propagator_command.hpp"
#include "app/distill_command.hpp"
#include "app/analysis_command.hpp"
#include "app/gevp_command.hpp"
#include "app/loops_command.hpp"
#include "app/spectrum_command.hpp"
#include "app/version.hpp"
#include "comm/communicator.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"

namespace {

// The error report is one line whatever it quotes (a file name, a TOML parser's description of a binary
// file): control characters are written as \xNN.
std::string one_line(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) out += fmt::format("\\x{:02x}", u);
    else out += c;
  }
  return out;
}

// An error on one rank of a multi-process run would leave the others waiting in a collective: report
// it with the rank and stop them all.
int report_error(const char* kind, const char* raw, int code) {
  const std::string what = one_line(raw);
  if (lqcd::comm::size() > 1) {
    std::cerr << "lqcd: " << kind << " (rank " << lqcd::comm::rank() << " of " << lqcd::comm::size() << "): " << what
              << std::endl;
    lqcd::comm::abort_all(code);
  }
  std::cerr << "lqcd: " << kind << ": " << what << std::endl;
  return code;
}

// MPI is initialised only where it can matter: under an MPI launcher, or with --grid (so that a grid
// of several processes started without mpirun gets the usual error rather than running serially).
// A serial run from a shell never pays for MPI's start-up nor prints what it may print then.
bool wants_mpi(int argc, char** argv) {
  if (lqcd::comm::started_by_mpi_launcher()) return true;
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]).starts_with("--grid")) return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace lqcd::app;
  // Sleeping OpenMP waits where the cores are shared (may run the program again: first of all).
  choose_openmp_wait_policy(argv);
  // A write beyond the file-size limit (ulimit -f, batch systems) would otherwise kill the program with
  // SIGXFSZ in the middle of a file; ignored, the write fails with EFBIG and the writer reports it
  // naming the file, with the previous files intact (issue 26), like a full disk.
  std::signal(SIGXFSZ, SIG_IGN);
  lqcd::comm::Session mpi(&argc, &argv, wants_mpi(argc, argv));
  // One GPU per rank: the node-local rank picks it.
  if (lqcd::comm::size() > 1) lqcd::select_device(lqcd::comm::local_rank());
  CLI::App app{"lqcd: lattice QCD on CPUs and NVIDIA GPUs.\n"
               "Conventions: directions (x,y,z,t) = 0..3, lexicographic x fastest; plaquette normalised to 1 "
               "for the unit field.\nRun 'lqcd <command> --help' for the options of a command.",
               "lqcd"};
  app.set_version_flag("--version", version_string());
  app.require_subcommand(1);

  // Every subcommand, in the order --help lists them: each declares its options in its own file
  // (add_<name>_command in app/<name>_command.cpp) with the shared ones of app/command.hpp.
  const std::vector<Command> commands = {
      add_heatbath_command(app),
      add_measure_command(app),
      add_flow_command(app),
      add_gaugefix_command(app),
      add_smear_command(app),
      add_convert_command(app),
      add_hmc_command(app),
      add_propagator_command(app),
      add_spectrum_command(app),
      add_loops_command(app),
      add_distill_command(app),
      add_gevp_command(app),
      add_analyse_command(app),
      add_plot_command(app),
      add_bench_command(app),
  };

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // A wrong command line is reported like every other user error: one "lqcd: error:" line naming the
    // option (CLI11's own report is two lines without the program's name), exit status 1.
    std::string where;
    for (const CLI::App* sub : app.get_subcommands()) where = " " + sub->get_name();
    return report_error("error", fmt::format("{} (see lqcd{} --help)", e.what(), where).c_str(), 1);
  }
  try {
    for (const Command& command : commands)
      if (command.app->parsed()) return command.run();
  } catch (const lqcd::Error& e) {
    return report_error("error", e.what(), 1);
  } catch (const std::exception& e) {
    return report_error("internal error", e.what(), 2);
  }
  return 0;
}
