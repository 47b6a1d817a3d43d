#include "app/gevp_command.hpp"

#include <memory>

#include <CLI/CLI.hpp>

#include <cmath>
#include <iostream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/json_values.hpp"
#include "core/error.hpp"
#include "io/hdf5_datasets.hpp"
#include "measure/gevp.hpp"

namespace lqcd::app {

namespace {
// Operator names contain commas themselves ("g5_p0,0,0,gx_p0,0,1"): a comma starts a new name only where
// the next piece has its own momentum tag "_p".
std::vector<std::string> split_operator_names(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string piece; std::getline(in, piece, ',');) {
    if (!out.empty() && piece.find("_p") == std::string::npos) out.back() += "," + piece;
    else out.push_back(piece);
  }
  return out;
}
}  // namespace

int run_gevp(const GevpCommandOptions& opt) {
  const io::Hdf5Dataset d = io::read_dataset_hdf5(opt.file, opt.dataset);
  if (d.shape.size() != 4 || d.shape[1] != d.shape[2] || d.shape[3] != 2)
    fail("{}: {} is not a correlator matrix [T][N][N][re, im]", opt.file, opt.dataset);
  const auto names_attr = d.string_attributes.find("operators");
  if (names_attr == d.string_attributes.end()) fail("{}: {} has no \"operators\" attribute", opt.file, opt.dataset);
  const std::vector<std::string> names = split_operator_names(names_attr->second);
  const int T = int(d.shape[0]), N = int(d.shape[1]);
  if (int(names.size()) != N) fail("{}: {} names {} operators for a {}x{} matrix", opt.file, opt.dataset, names.size(), N, N);
  std::vector<int> index;
  if (opt.operators.empty()) {
    for (int i = 0; i < N; ++i) index.push_back(i);
  } else {
    for (const std::string& w : split_operator_names(opt.operators)) {
      int found = -1;
      for (int i = 0; i < N; ++i)
        if (names[std::size_t(i)] == w) found = i;
      if (found < 0) fail("--operators: \"{}\" is not in {} (it holds {})", w, opt.file, names_attr->second);
      index.push_back(found);
    }
  }
  if (opt.t0 < 0 || opt.t0 >= T) fail("--t0 {}: expected 0..{}", opt.t0, T - 1);
  const int n = int(index.size());
  std::vector<std::vector<Complex<double>>> values(std::size_t(T), std::vector<Complex<double>>(std::size_t(n) * n));
  for (int t = 0; t < T; ++t)
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        const std::size_t at = ((std::size_t(t) * N + std::size_t(index[std::size_t(a)])) * N + std::size_t(index[std::size_t(b)])) * 2;
        values[std::size_t(t)][std::size_t(a * n + b)] = Complex<double>(d.values[at], d.values[at + 1]);
      }
  const GevpResult r = solve_gevp(values, n, opt.t0);
  std::vector<std::string> chosen;
  for (int i : index) chosen.push_back(names[std::size_t(i)]);
  if (opt.json) {
    nlohmann::json lambda = nlohmann::json::array(), energy = nlohmann::json::array();
    for (int k = 0; k < n; ++k) {
      nlohmann::json l = nlohmann::json::array(), e = nlohmann::json::array();
      for (int t = 0; t < T; ++t) l.push_back(finite_or_null(r.lambda[std::size_t(t)][std::size_t(k)]));
      for (int t = 0; t + 1 < T; ++t) e.push_back(finite_or_null(r.effective_energy[std::size_t(t)][std::size_t(k)]));
      lambda.push_back(l);
      energy.push_back(e);
    }
    std::cout << nlohmann::json{{"record", "gevp"}, {"file", opt.file}, {"t0", opt.t0}, {"operators", chosen},
                                {"lambda", lambda}, {"effective_energies", energy}}
                     .dump()
              << std::endl;
    return 0;
  }
  std::string ops;
  for (const std::string& c : chosen) {
    if (!ops.empty()) ops += ' ';
    ops += c;
  }
  std::cout << fmt::format("# GEVP C(t) v = lambda C(t0) v, t0 = {}, operators: {}\n"
                           "# effective energies E_n(t) = log(lambda_n(t) / lambda_n(t+1)) (lattice units); state 0 = ground state\n",
                           opt.t0, ops);
  std::string head = fmt::format("# {:>3}", "t");
  for (int k = 0; k < n; ++k) head += fmt::format(" {:>12}", fmt::format("E_{}", k));
  std::cout << head << "\n";
  for (int t = 0; t + 1 < T; ++t) {
    std::string row = fmt::format("  {:>3}", t);
    for (int k = 0; k < n; ++k) {
      const double e = r.effective_energy[std::size_t(t)][std::size_t(k)];
      row += std::isfinite(e) ? fmt::format(" {:12.6f}", e) : fmt::format(" {:>12}", "-");
    }
    std::cout << row << "\n";
  }
  return 0;
}

Command add_gevp_command(CLI::App& lqcd) {
  auto o = std::make_shared<GevpCommandOptions>();
  CLI::App* c = lqcd.add_subcommand(
      "gevp",
      "The GEVP C(t) v = lambda C(t0) v of a correlator matrix written by lqcd distill (PREFIX.h5): principal\n"
      "correlators and effective energies for a reference time and a subset of the operators.");
  c->add_option("file", o->file, "HDF5 file of lqcd distill (PREFIX.h5)")->required()->check(CLI::ExistingFile);
  c->add_option("--t0", o->t0, "reference time t0")->capture_default_str();
  c->add_option("--operators", o->operators,
                   "operators to use, comma-separated as in the file (e.g. g5_p0,0,0,gxgygz_p0,0,0); default all");
  c->add_option("--dataset", o->dataset, "the correlator matrix [T][N][N][re, im] in the file")->capture_default_str();
  c->add_flag("--json", o->json, "one JSON object (lambda and effective energies per state) on stdout");
  return {c, [o] { return run_gevp(*o); }};
}

}  // namespace lqcd::app
