#include "app/spectrum_command.hpp"

#include <memory>

#include <CLI/CLI.hpp>

#include <cmath>
#include <iostream>
#include <limits>

#include "app/device_choice.hpp"
#include "app/json_values.hpp"
#include "app/observables_json.hpp"
#include "app/quark_input.hpp"
#include "app/spectrum_input.hpp"
#include "app/version.hpp"
#include "comm/communicator.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "io/hdf5_correlators.hpp"
#include "measure/effective_mass.hpp"
#include "measure/baryon_interpolators.hpp"
#include "measure/meson_correlator.hpp"
#include "measure/baryon_three_point.hpp"
#include "measure/current_insertion.hpp"
#include "measure/pion_three_point.hpp"
#include "measure/sink_operators.hpp"
#include "measure/stochastic_estimates.hpp"
#include "measure/spin_matrix.hpp"
#include "measure/statistics.hpp"

namespace lqcd::app {

namespace {

constexpr int kPion = 15, kScalar = 0;  // Gamma(15) = gamma_5, Gamma(0) = 1

std::vector<double> real_parts(const std::vector<Complex<double>>& c) {
  std::vector<double> r(c.size());
  for (std::size_t i = 0; i < c.size(); ++i) r[i] = c[i].re;
  return r;
}

// PCAC quark mass from the symmetric time derivative of the axial-pseudoscalar correlator,
//   m_PCAC(t) = [C_{A0 P}(t+1) - C_{A0 P}(t-1)] / (4 C_{PP}(t)),  A0 = qbar g_t g5 q, P = qbar g5 q,
// from the lattice axial Ward identity d_0 <A_0(t) P(0)> = 2 m <P(t) P(0)> (e.g. M. Luscher et al.,
// Nucl. Phys. B 491 (1997) 323, eq. 2.2, without the O(a) improvement term). t = 0 and T-1: NaN.
std::vector<double> pcac_mass(const std::vector<double>& c_ap, const std::vector<double>& c_pp) {
  const std::size_t T = c_pp.size();
  std::vector<double> m(T, std::nan(""));
  for (std::size_t t = 1; t + 1 < T; ++t) m[t] = (c_ap[t + 1] - c_ap[t - 1]) / (4 * c_pp[t]);
  return m;
}

// Average of the finite entries for t in [T/4, 3T/4] (the plateau region on a periodic lattice).
double middle_average(const std::vector<double>& v) {
  const std::size_t T = v.size();
  double sum = 0;
  int n = 0;
  for (std::size_t t = T / 4; t <= 3 * T / 4 && t < T; ++t)
    if (std::isfinite(v[t])) sum += v[t], ++n;
  return n ? sum / n : std::nan("");
}

struct Measured {
  const BaryonChannel* channel;
  std::array<std::vector<std::vector<Complex<double>>>, 2> parity;  // P+, P- at every momentum
};

// The HDF5 attribute that says what each baryon dataset is.
std::string baryon_convention(const std::vector<Measured>& baryons) {
  std::string s = "<name>_Pplus/Pminus: C(t) = sum_x exp(-i p.(x-x0)) tr[P <B(x) Bbar(x0)>], P = (1 +- gamma_t)/2, "
                  "C = gamma_y gamma_t, t relative to the source slice (slices before it carry the quarks' boundary "
                  "phase cubed); spin 3/2: (1/3) sum_kl tr[P (delta_kl - gamma_k gamma_l / 3) <B_l Bbar_k>]. B:";
  for (const Measured& b : baryons) s += " " + b.channel->name + " = " + b.channel->formula + ";";
  return s;
}

}  // namespace

int run_spectrum(const SpectrumCommandOptions& opt) {
  Config config(spectrum_schema(), "spectrum");
  if (!opt.input.empty()) config.merge_file(opt.input);
  if (opt.print_config) {
    std::cout << config.to_toml();
    return 0;
  }
  const SpectrumInput input = read_spectrum_input(config);
  const QuarkInput& in = input.quark;
  const std::vector<std::array<int, 3>>& momenta = input.momenta;
  const bool neutral = input.neutral_pion;
  const Location loc = choose_location(opt.device);
  check_quark_lattice_fits(in, config, loc, opt.grid);
  const OutputPrefixLock output_lock(in.prefix, "output.prefix");  // held to the end: no second run interleaves

  const Stopwatch clock;
  // The configuration is read before the log and the JSON lines are opened: a file that cannot be used
  // leaves no output behind.
  const QuarkProblem problem(in, loc, opt.grid);
  RunLog log(in.prefix + ".log", false, opt.quiet || opt.json);
  JsonLines jsonl(in.prefix + ".jsonl", false);
  const Dims dims = problem.links().geometry().global;
  const int T = dims[3];
  // What the configuration's lattice decides (lattice.dims may be unset): refused before any solve.
  for (const int ts : input.sink_times)
    if (ts >= T)
      config.fail_key("spectrum.three_point_sink_times", fmt::format("{} is not a separation 1..T-1 of the {} time slices", ts, T));
  for (const int g : input.currents)
    if (g < 0 && !input.sink_times.empty() && problem.links().geometry().grid[3] != 1)
      config.fail_key("spectrum.three_point_currents", "\"conserved_vector\" needs the whole time extent on each process "
                                                       "(--grid with t = 1)");
  if (problem.links().geometry().distributed())
    for (const auto& [key, value] : {std::pair{"spectrum.rotated_sink_d1", input.rotated_sink_d1},
                                     std::pair{"spectrum.wavefunction_sink_radius", input.wavefunction_sink_radius}})
      if (value > 0) config.fail_key(key, "needs the whole lattice on one process (run without --grid)");
  log.line("# {}", version_string());
  log.line("# lqcd spectrum: meson and baryon two-point functions from one {} source", config.string("source.type"));
  log.line("# gauge: {}; plaquette {:.12f}", problem.gauge_description(), problem.observables().plaquette);
  log.line("# quark: {}", describe_fermion(in.fermion));
  log.line("# backend: {}", loc == Location::Device ? "CUDA, " + device_description() : "CPU (OpenMP)");
  if (problem.links().geometry().distributed())
    log.line("# lattice split over {} MPI ranks, process grid {} (x,y,z,t)", problem.links().geometry().processes(),
             dims_string(problem.links().geometry().grid));
  log.line("# conventions: C_G(t, p) = sum_x e^{{-i p.(x-x0)}} <(qbar G q)(x) (qbar G q)^dag(x0)>, t relative to the "
           "source time slice; DeGrand-Rossi gamma basis; G named by its literal product (g5 = gx gy gz gt)");
  log_input(log, config);

  log.line("# solves{}:", in.even_odd ? " (even-odd preconditioned, residuals checked with the full operator)" : "");
  const PointPropagator S = problem.propagator(in, problem.operators(), log, jsonl, "u");
  std::optional<PointPropagator> S_d;
  if (neutral) {
    const DiracOperators d = problem.operators_with_mu(-in.fermion.wilson.mu);
    S_d = problem.propagator(in, d, log, jsonl, "d (-mu)");
  }

  // All 16 Gamma - Gamma correlators at every momentum, and A0 - P for the PCAC mass.
  io::CorrelatorFile file;
  std::vector<std::vector<std::vector<Complex<double>>>> diagonal(16);
  for (int n = 0; n < 16; ++n) {
    const SpinMatrix g = SpinMatrix::basis(n);
    diagonal[std::size_t(n)] = meson_correlator(S, g, g, momenta);
    for (std::size_t m = 0; m < momenta.size(); ++m)
      file.datasets.push_back({gamma_name(n) + "_" + gamma_name(n), momenta[m], diagonal[std::size_t(n)][m]});
  }
  // The same with other codes' sinks (MILC's rotate_3D on both quarks, its wavefunction sink on one).
  const auto other_sink = [&](const PointPropagator& a, const PointPropagator& b, const std::string& suffix) {
    for (int n = 0; n < 16; ++n) {
      const SpinMatrix g = SpinMatrix::basis(n);
      const auto c = meson_correlator(a, b, g, g, momenta);
      for (std::size_t m = 0; m < momenta.size(); ++m)
        file.datasets.push_back({gamma_name(n) + "_" + gamma_name(n) + suffix, momenta[m], c[m]});
    }
  };
  if (input.rotated_sink_d1 > 0) {
    PointPropagator rotated = S;
    rotate_sink(rotated, problem.links(), input.rotated_sink_d1);
    other_sink(rotated, rotated, "_rotated");
  }
  if (input.wavefunction_sink_radius > 0) {
    PointPropagator convolved = S;
    wavefunction_sink(convolved, input.wavefunction_sink_radius);
    other_sink(S, convolved, "_wavefunction_sink");
  }
  const SpinMatrix g5 = SpinMatrix::basis(kPion), gt_g5 = SpinMatrix::gamma(3) * g5;
  const auto c_ap = meson_correlator(S, gt_g5, g5, momenta);
  for (std::size_t m = 0; m < momenta.size(); ++m) file.datasets.push_back({"gtg5_g5", momenta[m], c_ap[m]});
  std::vector<double> pion0;
  if (neutral) {
    const auto c = meson_correlator(S, *S_d, SpinMatrix::identity(), SpinMatrix::identity(), momenta);
    for (std::size_t m = 0; m < momenta.size(); ++m) file.datasets.push_back({"pion0_connected", momenta[m], c[m]});
    pion0 = real_parts(c[0]);
  }

  // The baryons (measure/baryon_interpolators.hpp) with the positive and the negative parity projector:
  // u and d from the same propagator, or the twisted-mass pair (u at +mu, d at -mu); the strange ones
  // with spectrum.strange_kappa.
  std::optional<PointPropagator> S_s;
  if (input.strange_kappa > 0) S_s = problem.propagator(in, problem.operators_with_kappa(input.strange_kappa), log, jsonl, "s");
  const QuarkPropagators quarks{&S, neutral ? &*S_d : &S, S_s ? &*S_s : nullptr};
  std::vector<Measured> baryons;
  for (const BaryonChannel& b : baryon_channels()) {
    if (b.strange && !S_s) continue;
    Measured m{&b, {}};
    for (int k = 0; k < 2; ++k) {
      const SpinMatrix P = parity_projector(k == 0 ? +1 : -1);
      m.parity[std::size_t(k)] = baryon_correlator(quarks, b.interpolator(),
                                                   b.spin_three_halves ? spin_three_halves_projection(P) : spin_half_projection(P),
                                                   momenta, in.fermion.wilson.boundary.phase[3], b.name.c_str());
      for (std::size_t p = 0; p < momenta.size(); ++p)
        file.datasets.push_back({b.name + (k == 0 ? "_Pplus" : "_Pminus"), momenta[p], m.parity[std::size_t(k)][p]});
    }
    baryons.push_back(std::move(m));
  }

  // Three-point functions, one sequential propagator per sink time and state (measure/pion_three_point.hpp,
  // measure/baryon_three_point.hpp): the pion with the current on its u quark; the proton with the current
  // on its u quarks and on its d quark, unpolarised and polarised along z (u and d from one propagator).
  struct ThreePoint {
    std::string name;  // pion_3pt_<current>_ts<t_s>, nucleon_3pt_<projection>_<flavour>_<current>_ts<t_s>
    int sink_time;
    bool nucleon;
    std::vector<std::vector<Complex<double>>> c3;  // [q][tau]
  };
  std::vector<ThreePoint> three_point;
  const auto insert_currents = [&](const PointPropagator& B, const std::string& stem, int ts, bool nucleon) {
    for (const int g : input.currents) {
      const std::string current = g < 0 ? "conserved_vector" : gamma_name(g);
      ThreePoint r{fmt::format("{}_{}_ts{}", stem, current, ts), ts, nucleon, {}};
      r.c3 = g < 0 ? current_insertion_conserved(S, B, problem.links(), in.fermion.wilson.kappa,
                                                in.fermion.wilson.boundary.phase[3], input.momentum_transfers)
                   : current_insertion_local(S, B, SpinMatrix::basis(g), input.momentum_transfers);
      for (std::size_t q = 0; q < input.momentum_transfers.size(); ++q)
        file.datasets.push_back({r.name, input.momentum_transfers[q], r.c3[q]});
      three_point.push_back(std::move(r));
    }
  };
  for (const int ts : input.sink_times) {
    if (input.pion_three_point) {
      const Stopwatch seq_clock;
      const PointPropagator B = pion_sequential_propagator(problem.operators(), in.even_odd, S, ts,
                                                           problem.solve_options(in, log, jsonl, "sequential"));
      log.line("  sequential propagator through the pion sink at t_s = {}: 12 solves in {:.2f} s", ts, seq_clock.seconds());
      insert_currents(B, "pion_3pt", ts, false);
    }
    if (!input.nucleon_three_point) continue;
    for (const bool polarised : {false, true})
      for (const Quark f : {Quark::Up, Quark::Down}) {
        const Stopwatch seq_clock;
        const char* flavour = f == Quark::Up ? "u" : "d";
        const PointPropagator B = baryon_sequential_propagator(
            problem.operators(), in.even_odd, QuarkPropagators{&S, &S, nullptr}, proton(),
            spin_half_projection(polarised ? polarised_projector(2) : parity_projector(+1)), f, ts,
            in.fermion.wilson.boundary.phase[3], problem.solve_options(in, log, jsonl, "sequential"), "nucleon");
        log.line("  sequential propagator through the {} nucleon sink at t_s = {}, current on {}: 12 solves in {:.2f} s",
                 polarised ? "z-polarised" : "unpolarised", ts, flavour, seq_clock.seconds());
        insert_currents(B, fmt::format("nucleon_3pt_{}_{}", polarised ? "polarised_z" : "unpolarised", flavour), ts, true);
      }
  }

  // The one-end-trick pion: vector i from (source.seed, i) on the source's time slice.
  std::vector<std::vector<double>> one_end;
  for (int v = 0; v < input.one_end_vectors; ++v) {
    NoiseSpec noise;
    noise.type = input.one_end_noise;
    noise.seed = in.source.seed;
    noise.index = v;
    noise.time_slice = in.source.position[3];
    noise.dilution.spin = noise.dilution.colour = true;
    one_end.push_back(one_end_pion(problem.operators(), in.even_odd, noise, problem.solve_options(in, log, jsonl, "one-end")));
    std::vector<Complex<double>> values(one_end.back().begin(), one_end.back().end());
    file.datasets.push_back({fmt::format("pion_one_end_noise{}", v), {0, 0, 0}, values});
  }

  // Momentum index of p = 0 for the summary (the first momentum if zero is not in the list).
  std::size_t p0 = 0;
  for (std::size_t m = 0; m < momenta.size(); ++m)
    if (momenta[m] == std::array<int, 3>{0, 0, 0}) {
      p0 = m;
      break;
    }
  const std::vector<double> pion = pion_correlator_from_norms(S);
  std::vector<double> rho(std::size_t(T), 0.0);
  for (int i : {1, 2, 4})  // Gamma(1) = gx, Gamma(2) = gy, Gamma(4) = gz
    for (int t = 0; t < T; ++t) rho[std::size_t(t)] += diagonal[std::size_t(i)][p0][std::size_t(t)].re / 3;
  const std::vector<double> a0 = real_parts(diagonal[kScalar][p0]);
  const std::vector<double> pcac = pcac_mass(real_parts(c_ap[p0]), real_parts(diagonal[kPion][p0]));
  const std::vector<double> nucleon_plus = real_parts(baryons[0].parity[0][p0]),
                            nucleon_minus = real_parts(baryons[0].parity[1][p0]);

  const WilsonParams& w = in.fermion.wilson;
  file.string_attributes = {{"program", version_string()},
                            {"gauge_config", in.config},
                            {"fermion_action", config.string("fermion.action")},
                            {"quark", describe_fermion(in.fermion)},
                            {"source_type", config.string("source.type")},
                            {"source_smearing", describe_quark_smearing(in.source_smearing)},
                            {"sink_smearing", describe_quark_smearing(in.sink_smearing)},
                            {"link_smearing", describe_link_smearing(in)},
                            {"source_position", fmt::format("[{}, {}, {}, {}]", in.source.position[0],
                                                            in.source.position[1], in.source.position[2],
                                                            in.source.position[3])},
                            {"solver", solver_type_name(in.solver.type)},
                            {"dims", dims_string(dims)},
                            {"gamma_basis", "DeGrand-Rossi (Chroma/QDP++)"},
                            {"convention", "C(t) = sum_x exp(-i p.(x-x0)) <O_G(x) O_G^dag(x0)>, datasets [T][re, im], t "
                                           "relative to the source time slice, p = 2 pi n / L"},
                            {"baryon_convention", baryon_convention(baryons)}};
  if (S_s) file.number_attributes["strange_kappa"] = input.strange_kappa;
  file.number_attributes.insert({{"kappa", w.kappa}, {"m0", w.mass()}, {"csw", in.fermion.csw}, {"mu", w.mu},
                            {"solver_tolerance", in.solver.tolerance},
                            {"plaquette", problem.observables().plaquette}});
  // The wavefunction's width is part of what the correlators measure (the overlap with the ground state);
  // so are the gauge the sources and sinks were fixed in and the other codes' sinks (issue 49).
  if (in.source.type == SourceType::GaussianWavefunction) file.number_attributes["source_radius"] = in.source.radius;
  file.string_attributes["gauge_fixing"] =
      !in.gauge_fixing ? "none" : in.gauge_fixing->gauge == GaugeCondition::Coulomb ? "coulomb" : "landau";
  if (input.rotated_sink_d1 > 0) file.number_attributes["rotated_sink_d1"] = input.rotated_sink_d1;
  if (input.wavefunction_sink_radius > 0)
    file.number_attributes["wavefunction_sink_radius"] = input.wavefunction_sink_radius;
  if (input.one_end_vectors > 0) {
    file.number_attributes["one_end_vectors"] = input.one_end_vectors;
    file.string_attributes["one_end_noise"] = noise_type_name(input.one_end_noise);
  }
  const std::string h5 = in.prefix + ".h5";
  if (comm::rank() == 0) io::write_correlators_hdf5(h5, file);  // the correlators are global sums on every rank

  const std::vector<double> m_pion = cosh_effective_mass(pion), m_rho = cosh_effective_mass(rho),
                            m_a0 = cosh_effective_mass(a0);
  log.line("# correlators at p = [{}, {}, {}] (all 16 gammas x {} momenta in {}):", momenta[p0][0], momenta[p0][1],
           momenta[p0][2], momenta.size(), h5);
  log.line("# {:>3} {:>15} {:>15} {:>15} {:>10} {:>10} {:>10} {:>10}", "t", "pion", "rho", "a0", "m_pion", "m_rho",
           "m_a0", "m_pcac");
  auto fmt_mass = [](const std::vector<double>& m, int t) {
    return t < int(m.size()) && std::isfinite(m[std::size_t(t)]) ? fmt::format("{:10.6f}", m[std::size_t(t)])
                                                                  : fmt::format("{:>10}", "-");
  };
  for (int t = 0; t < T; ++t)
    log.line("  {:>3} {:15.8e} {:15.8e} {:15.8e} {} {} {} {}", t, pion[std::size_t(t)], rho[std::size_t(t)],
             a0[std::size_t(t)], fmt_mass(m_pion, t), fmt_mass(m_rho, t), fmt_mass(m_a0, t), fmt_mass(pcac, t));
  const double pcac_avg = middle_average(pcac);
  log.line("# effective masses: cosh-aware, m(t) from C(t)/C(t+1) (lattice units); PCAC mass averaged over "
           "t = T/4..3T/4: {:.6f}", pcac_avg);
  if (neutral) log.line("# twisted mass: pion = charged pion (sum |S_u|^2); pion0_connected in {}", h5);
  std::vector<std::vector<double>> m_baryon;  // log C+(t)/C+(t+1) of each baryon, the nucleon first
  for (const Measured& b : baryons) m_baryon.push_back(log_effective_mass(real_parts(b.parity[0][p0])));
  const std::vector<double>& m_nucleon = m_baryon[0];
  log.line("# nucleon, N = eps (u^T C gamma_5 d) u, projected with P+- = (1 +- gamma_t)/2 (nucleon_Pplus, "
           "nucleon_Pminus in {}); m_eff = log C+(t)/C+(t+1):", h5);
  log.line("# {:>3} {:>15} {:>15} {:>10}", "t", "C+", "C-", "m_nucleon");
  for (int t = 0; t < T; ++t)
    log.line("  {:>3} {:15.8e} {:15.8e} {}", t, nucleon_plus[std::size_t(t)], nucleon_minus[std::size_t(t)],
             fmt_mass(m_nucleon, t));
  std::string header = fmt::format("# {:>3}", "t");
  for (const Measured& b : baryons) header += fmt::format(" {:>10}", b.channel->name);
  log.line("# baryon effective masses m_eff = log C+(t)/C+(t+1) (lattice units; correlators <name>_Pplus/Pminus in "
           "{}, interpolators in its baryon_convention attribute):", h5);
  log.line("{}", header);
  for (int t = 0; t < T; ++t) {
    std::string row = fmt::format("  {:>3}", t);
    for (const auto& m : m_baryon) row += " " + fmt_mass(m, t);
    log.line("{}", row);
  }

  // The ratios C3(tau) / C2(t_s) at the first momentum transfer, over the pion's or the unpolarised
  // nucleon's two-point function (the conserved current's charge, between source and sink minus outside,
  // is 1 for the pion's u quark, 2 for the proton's u quarks and 1 for its d quark).
  nlohmann::json ratios = nlohmann::json::object();
  for (const ThreePoint& r : three_point) {
    std::vector<double> ratio(static_cast<std::size_t>(T));
    const double c2 = (r.nucleon ? nucleon_plus : pion)[std::size_t(r.sink_time)];
    for (int t = 0; t < T; ++t) ratio[std::size_t(t)] = r.c3[0][std::size_t(t)].re / c2;
    log.line("# {}: C3(tau) / C2(t_s) at q = [{}, {}, {}] (tau = 0..T-1 from the source; datasets {} in {}):", r.name,
             input.momentum_transfers[0][0], input.momentum_transfers[0][1], input.momentum_transfers[0][2], r.name, h5);
    std::string row = " ";
    for (double v : ratio) row += fmt::format(" {:.8f}", v);
    log.line("{}", row);
    ratios[r.name] = finite_or_null(ratio);
  }

  nlohmann::json summary = {{"record", "spectrum"},
                            {"config", in.config},
                            {"dims", dims},
                            {"plaquette", problem.observables().plaquette},
                            {"fermion", {{"action", config.string("fermion.action")},
                                         {"kappa", w.kappa},
                                         {"mass", w.mass()},
                                         {"csw", in.fermion.csw},
                                         {"mu", w.mu}}},
                            {"source", {{"type", config.string("source.type")}, {"position", in.source.position}}},
                            {"momentum", momenta[p0]},
                            {"hdf5", h5},
                            {"seconds", clock.seconds()}};
  summary["correlators"] = {{"pion", finite_or_null(pion)},
                            {"rho", finite_or_null(rho)},
                            {"a0", finite_or_null(a0)},
                            {"pcac_mass", finite_or_null(pcac)},
};
  for (std::size_t b = 0; b < baryons.size(); ++b) {
    const std::string& name = baryons[b].channel->name;
    summary["correlators"][name] = finite_or_null(real_parts(baryons[b].parity[0][p0]));
    summary["correlators"][name + "_negative_parity"] = finite_or_null(real_parts(baryons[b].parity[1][p0]));
  }
  if (in.source.type == SourceType::GaussianWavefunction) summary["source"]["radius"] = in.source.radius;
  if (neutral) summary["correlators"]["pion0_connected"] = finite_or_null(pion0);
  summary["effective_masses"] = {{"pion", finite_or_null(m_pion)},
                                 {"rho", finite_or_null(m_rho)},
                                 {"a0", finite_or_null(m_a0)},
};
  for (std::size_t b = 0; b < baryons.size(); ++b)
    summary["effective_masses"][baryons[b].channel->name] = finite_or_null(m_baryon[b]);
  summary["pcac_mass_average"] = finite_or_null(pcac_avg);
  if (!one_end.empty()) {
    // Mean and standard error over the noise vectors: the point pion averaged over the source slice.
    std::vector<double> mean, error;
    for (int t = 0; t < T; ++t) {
      std::vector<double> x;
      for (const auto& c : one_end) x.push_back(c[std::size_t(t)]);
      const Estimate e = binned_jackknife(x, 1);  // independent vectors: the standard error of the mean
      mean.push_back(e.mean);
      error.push_back(e.bins > 1 ? e.error : std::nan(""));
    }
    summary["correlators"]["pion_one_end"] = finite_or_null(mean);
    summary["correlators"]["pion_one_end_error"] = finite_or_null(error);
    log.line("# one-end-trick pion (the pion of this source averaged over the source slice; {} {} vectors, "
             "pion_one_end_noise<i> in {}):",
             one_end.size(), noise_type_name(input.one_end_noise), h5);
    for (int t = 0; t < T; ++t)
      log.line("  {:>3} {:15.8e} +- {:.3e}   (this source's pion: {:15.8e})", t, mean[std::size_t(t)], error[std::size_t(t)],
               pion[std::size_t(t)]);
  }
  if (!three_point.empty()) summary["three_point_ratios"] = ratios;
  jsonl.write(summary);
  if (opt.json && comm::rank() == 0) std::cout << summary.dump() << std::endl;
  log.line("# done in {}", format_duration(clock.seconds()));
  return 0;
}

Command add_spectrum_command(CLI::App& lqcd) {
  auto o = std::make_shared<SpectrumCommandOptions>();
  CLI::App* c = lqcd.add_subcommand(
      "spectrum",
      "Meson and baryon two-point functions: propagator of one source, contracted for all 16 gamma structures\n"
      "and the nucleon and Delta (with spectrum.strange_kappa also Lambda, Sigma, Xi, Omega; both parity\n"
      "projections) at the requested momenta (PREFIX.h5), with pion, rho, a0, PCAC mass, baryons and effective\n"
      "masses in the log, PREFIX.jsonl and (--json) on stdout.");
  add_toml_input(c, o->input, o->print_config);
  c->add_flag("--json", o->json, "print one JSON object (correlators, effective masses) on stdout");
  add_device_option(c, o->device);
  add_grid_option(c, o->grid);
  add_quiet_option(c, o->quiet, "no log on stdout (files are still written)");
  return {c, [o] { return run_spectrum(*o); }};
}

}  // namespace lqcd::app
