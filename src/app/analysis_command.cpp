#include "app/analysis_command.hpp"

#include <memory>

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/error.hpp"

namespace lqcd::app {

namespace {

namespace fs = std::filesystem;

// Where lqcd.analysis is: $LQCD_PYTHONPATH, the source tree this program was built from (the same
// version), or the installed package (cmake --install).
std::string package_directory() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("LQCD_PYTHONPATH")) candidates.emplace_back(env);
#ifdef LQCD_SOURCE_PYTHON_DIR
  candidates.emplace_back(LQCD_SOURCE_PYTHON_DIR);
#endif
#ifdef LQCD_INSTALLED_PYTHON_DIR
  candidates.emplace_back(LQCD_INSTALLED_PYTHON_DIR);
#endif
  std::error_code ec;
  for (const std::string& c : candidates)
    if (fs::is_regular_file(fs::path(c) / "lqcd" / "analysis" / "__main__.py", ec)) return c;
  fail("the Python package lqcd.analysis was not found (looked in $LQCD_PYTHONPATH, the source tree and the "
       "install); set LQCD_PYTHONPATH to the directory that holds lqcd/analysis");
}

// $LQCD_PYTHON, else the python3 on PATH (Debian's, with python3-numpy and friends, on a Debian system).
std::string python_interpreter() {
  if (const char* env = std::getenv("LQCD_PYTHON"); env && *env) return env;
  return "python3";
}

}  // namespace

int run_analysis(const AnalysisCommandOptions& opt) {
  const std::string command = opt.mode == "plot" ? "lqcd plot" : "lqcd analyse";
  std::error_code ec;
  std::string file = opt.run;
  if (!fs::is_regular_file(file, ec) && fs::is_regular_file(file + ".jsonl", ec)) file += ".jsonl";
  if (!fs::is_regular_file(file, ec))
    fail("{}: {}: no such run (expected PREFIX.jsonl of lqcd heatbath or lqcd hmc, or PREFIX)", command, opt.run);
  if (opt.format != "png" && opt.format != "pdf") fail("--format: expected png or pdf (got \"{}\")", opt.format);
  const std::string dir = package_directory();
  const char* old = std::getenv("PYTHONPATH");
  const std::string path = old && *old ? dir + ":" + old : dir;
  ::setenv("PYTHONPATH", path.c_str(), 1);
  std::vector<std::string> args = {python_interpreter(), "-m", "lqcd.analysis", opt.mode == "plot" ? "plot" : "run", file};
  if (opt.therm >= 0) args.insert(args.end(), {"--therm", std::to_string(opt.therm)});
  if (opt.mode == "plot") {
    if (!opt.observables.empty()) args.insert(args.end(), {"--observables", opt.observables});
    args.insert(args.end(), {"--format", opt.format});
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execvp(argv[0], argv.data());
  fail("{}: cannot run {} ({}): install Debian's python3 with python3-numpy, python3-scipy and python3-matplotlib "
       "(scripts/install-deps.sh), or set LQCD_PYTHON to a python3 that has them", command, args[0], std::strerror(errno));
}

Command add_analyse_command(CLI::App& lqcd) {
  auto o = std::make_shared<AnalysisCommandOptions>();
  o->mode = "run";
  CLI::App* c = lqcd.add_subcommand(
      "analyse",
      "Error analysis of a heatbath or HMC run (PREFIX.jsonl): every scalar observable after thermalisation with\n"
      "its Gamma-method error (Wolff 2004) and integrated autocorrelation time, the acceptance and <exp(-dH)>.\n"
      "Runs python3 -m lqcd.analysis run (Debian's python3-numpy and python3-scipy).");
  c->add_option("run", o->run, "PREFIX.jsonl of lqcd heatbath or lqcd hmc, or PREFIX")->required();
  c->add_option("--therm", o->therm, "records to drop (default: those the run did not mark thermalised)");
  return {c, [o] { return run_analysis(*o); }};
}

Command add_plot_command(CLI::App& lqcd) {
  auto o = std::make_shared<AnalysisCommandOptions>();
  o->mode = "plot";
  CLI::App* c = lqcd.add_subcommand(
      "plot",
      "Plots of a heatbath or HMC run (PREFIX.jsonl), next to it: PREFIX.<observable>.history.png (history and\n"
      "histogram with the mean and its error band) and PREFIX.<observable>.autocorrelation.png. Runs python3 -m\n"
      "lqcd.analysis plot (Debian's python3-matplotlib).");
  c->add_option("run", o->run, "PREFIX.jsonl of lqcd heatbath or lqcd hmc, or PREFIX")->required();
  c->add_option("--observables", o->observables, "comma-separated (default: plaquette, and dH when present)");
  c->add_option("--therm", o->therm, "records to drop (default: those the run did not mark thermalised)");
  c->add_option("--format", o->format, "png | pdf")->capture_default_str();
  return {c, [o] { return run_analysis(*o); }};
}

}  // namespace lqcd::app
