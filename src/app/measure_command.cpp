#include "app/measure_command.hpp"

#include <memory>

#include <CLI/CLI.hpp>

#include <cmath>
#include <iostream>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/device_choice.hpp"
#include "app/input_values.hpp"
#include "app/observables_json.hpp"
#include "comm/communicator.hpp"
#include "gauge/ape_smearing.hpp"
#include "gauge/hyp_smearing.hpp"
#include "gauge/open_boundary.hpp"
#include "gauge/wilson_loops.hpp"
#include "core/error.hpp"
#include "measure/configuration.hpp"

namespace lqcd::app {

namespace {

// An open lattice's plaquettes (gauge/open_boundary.hpp): the mean over the (6 N0 - 3) N1 N2 N3 plaquettes in
// the lattice (lqcd's HMC logs), and openQCD's: the spatial ones at x0 = 0 and T weighted c_G / 2 = 1/2, over
// their weighted number 6 (N0 - 1) N1 N2 N3 (its qcd1/ym1 logs print "Average plaquette" = 3 times this).
struct OpenLatticePlaquettes {
  double in_lattice = 0, openqcd = 0;
};
OpenLatticePlaquettes open_lattice_plaquettes(const GaugeField<double>& U) {
  const Dims& n = U.geometry().global;
  TimeBoundary b;
  b.open = true;
  b.boundary_weight = 0.5;
  b.last = n[kTimeDir] - 1;
  const OpenBoundaryPlaquettes p = open_boundary_plaquettes(U, b);
  const double weights = 6.0 * (n[kTimeDir] - 1) * n[0] * n[1] * n[2];
  return {p.plaquette, 1 - p.weighted_deficit / weights};
}

nlohmann::json to_json(const std::string& file, const LoadedConfiguration& c,
                       const std::optional<OpenLatticePlaquettes>& open) {
  nlohmann::json j = {{"file", file},
                      {"format", c.info.format},
                      {"dims", c.info.dims},
                      {"precision", c.info.precision_bits == 32 ? "single" : "double"},
                      {"checksum_ok", nullptr}};
  j.update(observables_json(c.observables));
  j["max_su3_deviation"] = c.max_su3_deviation;
  if (c.info.checksum_ok) j["checksum_ok"] = *c.info.checksum_ok;
  if (c.info.header_plaquette) j["header_plaquette"] = *c.info.header_plaquette;
  if (c.info.header_link_trace) j["header_link_trace"] = *c.info.header_link_trace;
  j["boundary"] = open ? "open" : "periodic";
  if (open) {
    j["plaquette_in_lattice"] = open->in_lattice;
    j["plaquette_openqcd"] = open->openqcd;
  }
  return j;
}

void print_human(const std::string& file, const LoadedConfiguration& c, const std::optional<OpenLatticePlaquettes>& open) {
  const GaugeObservables& o = c.observables;
  const std::string checksum =
      c.info.checksum_ok ? (*c.info.checksum_ok ? "ok" : "MISMATCH") + std::string(" (") + c.info.checksum_detail + ")"
                         : "none in file";
  std::cout << fmt::format(
      "{}\n"
      "  format {}, {} (x,y,z,t), {}-bit reals, checksum {}\n"
      "  plaquette          {:.12f}   (spatial {:.12f}, temporal {:.12f}; <Re tr U_p>/3, 1 for the unit field)\n"
      "  rectangle          {:.12f}   (<Re tr R_1x2>/3 over 12 orientations)\n"
      "  polyakov loop      ({:.12f}, {:.12f})   (<tr prod_t U_t>/3)\n"
      "  link trace         {:.12f}   (<Re tr U>/3; not gauge invariant)\n"
      "  max SU(3) deviation {:.3g}\n",
      file, c.info.format, dims_string(c.info.dims), c.info.precision_bits, checksum, o.plaquette, o.plaquette_spatial,
      o.plaquette_temporal, o.rectangle, o.polyakov_loop.re, o.polyakov_loop.im, o.link_trace, c.max_su3_deviation);
  if (c.info.header_plaquette) std::cout << fmt::format("  header plaquette   {:.12f}\n", *c.info.header_plaquette);
  if (open) {
    std::cout << fmt::format(
        "  open boundaries in time: U_t = 0 at x0 = N0 - 1 (the plaquette above counts the zero ones; the Polyakov loop "
        "vanishes)\n"
        "  open plaquette     {:.12f}   (over the (6 N0 - 3) N1 N2 N3 plaquettes in the lattice, as lqcd hmc logs it)\n"
        "  openQCD plaquette  {:.12f}   (spatial ones at x0 = 0, T weighted 1/2, c_G = 1; openQCD logs 3 times this)\n",
        open->in_lattice, open->openqcd);
  }
}

}  // namespace

int run_measure(const MeasureCommandOptions& opt) {
  int r_max = 0, t_max = 0;
  if (!opt.loops.empty()) {
    char comma = 0;
    std::istringstream in(opt.loops);
    if (!(in >> r_max >> comma >> t_max) || comma != ',' || !in.eof() || r_max < 1 || t_max < 1 || r_max > 8 ||
        t_max > 8)
      fail("--loops: expected RMAX,TMAX with each in 1..8 (e.g. 6,6), got \"{}\"", opt.loops);
  }
  if (opt.ape_steps != 0 && opt.loops.empty()) fail("--ape-steps: smears the spatial links for --loops, which is not given");
  if (opt.hyp_steps != 0 && opt.loops.empty()) fail("--hyp-steps: smears the spatial links for --loops, which is not given");
  if (opt.off_axis && opt.loops.empty()) fail("--off-axis: adds off-axis loops to --loops, which is not given");
  if (opt.ape_steps < 0 || opt.ape_steps > 1000) fail("--ape-steps: expected 0 to 1000 steps, got {}", opt.ape_steps);
  if (opt.hyp_steps < 0 || opt.hyp_steps > 1000) fail("--hyp-steps: expected 0 to 1000 steps, got {}", opt.hyp_steps);
  if (opt.ape_steps > 0 && opt.hyp_steps > 0) fail("--hyp-steps: give either --ape-steps or --hyp-steps, not both");
  if (!(opt.ape_alpha >= 0 && opt.ape_alpha <= 1))
    fail("--ape-alpha: expected an APE parameter in [0, 1], got {}", opt.ape_alpha);
  const ApeParams ape{opt.ape_alpha, opt.ape_steps, true};
  HypParams hyp;
  hyp.steps = opt.hyp_steps;
  hyp.spatial = true;
  const std::vector<std::array<int, 3>> separations =
      opt.off_axis ? off_axis_separations(r_max) : std::vector<std::array<int, 3>>{};
  nlohmann::json smearing = nullptr;
  std::string smearing_text;
  if (ape.iterations > 0) {
    smearing = {{"method", "ape"}, {"links", "spatial"}, {"steps", ape.iterations}, {"alpha", ape.alpha}};
    smearing_text = fmt::format(" (spatial links APE-smeared, {} steps of alpha = {})", ape.iterations, ape.alpha);
  } else if (hyp.steps > 0) {
    smearing = {{"method", "hyp"}, {"links", "spatial"}, {"steps", hyp.steps}, {"alpha1", hyp.alpha1}, {"alpha2", hyp.alpha2}};
    smearing_text = fmt::format(" (spatial links 3D-HYP-smeared, {} steps of alpha = ({}, {}))", hyp.steps, hyp.alpha1,
                                hyp.alpha2);
  } else {
    smearing = {{"method", "none"}};
  }
  LoadPolicy policy;
  policy.verify = !opt.no_verify;
  policy.location = choose_location(opt.device);
  policy.open_time_boundary_by_links = true;  // an open lattice's file: its zero links are not SU(3)
  int failures = 0;
  for (const std::string& file : opt.files) {
    // Every rank reads the file and keeps its part of the lattice; the observables are global sums.
    policy.decompose = [&](const Dims& global) { return decompose_over_run(global, opt.grid, file); };
    try {
      const LoadedConfiguration c = load_configuration(file, policy);
      // The loops on spatially APE- or HYP-smeared links (temporal links untouched: the transfer matrix,
      // and so the T dependence, stays that of the action) when asked.
      std::vector<std::vector<double>> loops, off_axis;
      if (r_max > 0) {
        std::optional<GaugeField<double>> smeared;
        if (ape.iterations > 0) smeared = ape_smear(c.field, ape);
        if (hyp.steps > 0) smeared = hyp_smear(c.field, hyp);
        const GaugeField<double>& links = smeared ? *smeared : c.field;
        loops = wilson_loops(links, r_max, t_max);
        for (const auto& r : separations) off_axis.push_back(wilson_loops_along(links, r, t_max));
      }
      // a global sum: on every rank, before rank 0 alone prints
      std::optional<OpenLatticePlaquettes> open;
      if (c.open_time_boundary) open = open_lattice_plaquettes(c.field);
      if (comm::rank() != 0) continue;  // every rank has the same values; one prints
      if (opt.json) {
        nlohmann::json j = to_json(file, c, open);
        if (!loops.empty()) {
          j["wilson_loops"] = loops;  // [R-1][T-1]
          j["wilson_loops_smearing"] = smearing;
        }
        if (!separations.empty()) {
          nlohmann::json list = nlohmann::json::array();
          for (std::size_t k = 0; k < separations.size(); ++k) {
            const auto& r = separations[k];
            list.push_back({{"r", r}, {"distance", std::sqrt(double(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]))}, {"W", off_axis[k]}});
          }
          j["wilson_loops_off_axis"] = list;  // W[T-1] per separation
        }
        std::cout << j.dump() << std::endl;
      } else {
        print_human(file, c, open);
        if (!loops.empty()) std::cout << fmt::format("  Wilson loops W(R, T) = <Re tr W>/3{}\n", smearing_text);
        const auto row = [](const std::vector<double>& w) {
          std::string text;
          for (double v : w) text += fmt::format(" {:.8e}", v);
          return text;
        };
        for (std::size_t r = 0; r < loops.size(); ++r)
          std::cout << fmt::format("  W(R = {}, T = 1..{}){}\n", r + 1, loops[r].size(), row(loops[r]));
        for (std::size_t k = 0; k < separations.size(); ++k) {
          const auto& r = separations[k];
          std::cout << fmt::format("  W(r = ({},{},{}), |r| = {:.4f}, T = 1..{}){}\n", r[0], r[1], r[2],
                                   std::sqrt(double(r[0] * r[0] + r[1] * r[1] + r[2] * r[2])), off_axis[k].size(),
                                   row(off_axis[k]));
        }
      }
    } catch (const Error& e) {
      ++failures;
      // Every rank read the same file and failed the same way; one reports it.
      if (comm::rank() == 0) std::cerr << "lqcd measure: error: " << e.what() << std::endl;
    }
  }
  return failures == 0 ? 0 : 1;
}

Command add_measure_command(CLI::App& lqcd) {
  auto o = std::make_shared<MeasureCommandOptions>();
  CLI::App* c = lqcd.add_subcommand(
      "measure",
      "Gauge observables of stored configurations (format detected from the content: ILDG/SciDAC LIME, NERSC, "
      "MILC, openQCD).\nChecksums and header plaquettes are verified; a mismatch is an error unless --no-verify.");
  c->add_option("files", o->files, "configuration files")->required();
  c->add_flag("--json", o->json, "one JSON object per file on stdout");
  c->add_flag("--no-verify", o->no_verify, "report checksum/header mismatches instead of failing");
  add_device_option(c, o->device);
  c->add_option("--loops", o->loops,
                      "RMAX,TMAX (each 1..8): also the planar Wilson loops W(R, T) = <Re tr W>/3, R along the "
                      "spatial axes (averaged), T along time (smear the spatial links first with --ape-steps for the "
                      "static potential)");
  c->add_option("--ape-steps", o->ape_steps,
                      "with --loops: APE-smear the spatial links of a copy this many times first (ground-state "
                      "overlap for the static potential; 20 is usual)")
      ->capture_default_str();
  c->add_option("--ape-alpha", o->ape_alpha, "with --ape-steps: the APE parameter")->capture_default_str();
  c->add_option("--hyp-steps", o->hyp_steps,
                      "with --loops: 3D-HYP-smear the spatial links of a copy this many times first (alpha = 0.75, "
                      "0.6; instead of --ape-steps)")
      ->capture_default_str();
  c->add_flag("--off-axis", o->off_axis,
                    "with --loops: also the off-axis loops W(r, T) for r = (a, b, c), a >= b >= 1, |r| <= RMAX (staircase "
                    "paths averaged over the cubic images; JSON wilson_loops_off_axis)");
  add_grid_option(c, o->grid);
  return {c, [o] { return run_measure(*o); }};
}

}  // namespace lqcd::app
