#include "app/bench_command.hpp"
#include "app/multigrid_input.hpp"

#include "app/input_values.hpp"
#include "app/output.hpp"
#include "app/run_files.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>
#include <iostream>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/device_choice.hpp"
#include "app/version.hpp"
#include "comm/communicator.hpp"
#include "comm/device_messages.hpp"
#include "comm/process_grid.hpp"
#include "core/bandwidth.hpp"
#include "core/dense_linear_algebra.hpp"
#include "core/copy_stream.hpp"
#include "core/device_timeline.hpp"
#include "core/energy_meter.hpp"
#include "core/launch_tuning.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "gauge/gauge_fixing.hpp"
#include "gauge/stout_smearing.hpp"
#include "measure/distillation_contractions.hpp"
#include "measure/laplacian_eigenvectors.hpp"
#include "gauge/gradient_flow.hpp"
#include "gauge/observables.hpp"
#include "measure/configuration.hpp"
#include "gauge/updates.hpp"
#include "core/site_random.hpp"
#include "dirac/clover_even_odd.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "dirac/visiting_order.hpp"
#include "dirac/face_exchange.hpp"
#include "dirac/wilson_even_odd.hpp"
#include "dirac/wilson_kernels.hpp"
#include "dirac/wilson_even_odd_multi_rhs.hpp"
#include "dirac/wilson_multi_rhs.hpp"
#include "fields/spinor_block_blas.hpp"
#include "solvers/krylov/multi_rhs_cg.hpp"
#include "solvers/multigrid/multigrid.hpp"
#include "core/dispatch.hpp"
#include "fields/spinor_blas.hpp"
#include "fields/spinor_block_field.hpp"
#include "solvers/solver.hpp"

namespace lqcd::app {

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The GPU energy of one timed region (core/energy_meter), measured by median_seconds over its whole
// loop of calls on all processes of `grid` (each with a GPU of its own): joules added over the
// processes, seconds the longest; `calls` per process.
struct RegionEnergy {
  EnergyMeter& meter;
  Dims grid;
  EnergyReading reading{};
  long calls = 0;
};

void finish_region_energy(RegionEnergy& e, bool metered, long calls) {
  e.reading = e.meter.stop();  // unmetered: the reading says why
  e.calls = metered ? calls : 0;
  if (!metered) {
    if (e.meter.available()) e.reading.unavailable_reason = "not every process can read its GPU's energy counter";
    return;
  }
  if (comm::any(e.grid, !e.reading.available)) {
    if (e.reading.available) e.reading = EnergyReading{false, "the energy counter failed on another process"};
    return;
  }
  e.reading.joules = comm::sum(e.grid, e.reading.joules);
  e.reading.seconds = comm::max(e.grid, e.reading.seconds);
}

// The launch tuner's state (core/launch_tuning.hpp) and the block sizes this run's tunable kernels
// used: on this process; the kernels and lattices are the same on every process.
nlohmann::json launch_tuning_fields() {
  if (!launch_tuning_enabled())
    return {{"launch_tuning", "off (LQCD_TUNE=0): blocks of 256 threads"}, {"programmatic_launch", programmatic_launch_enabled()}};
  const std::shared_ptr<LaunchTuningCache> cache = launch_tuning();
  nlohmann::json blocks = nlohmann::json::array();
  for (const LaunchRecord& r : cache->used())
    blocks.push_back({{"kernel", r.key.kernel},
                      {"sites", r.key.sites},
                      {"registers", r.key.registers},
                      {"block", r.choice.block},
                      {"tuned_microseconds", r.choice.microseconds},
                      {"source", r.source}});
  return {{"launch_tuning", cache->path().empty() ? std::string("on (no cache file)") : "on (cache " + cache->path() + ")"},
          {"launch_blocks", blocks},
          {"programmatic_launch", programmatic_launch_enabled()}};
}

// Sets of inputs a benchmark rotates over so that a call does not find the previous call's data in L2
// (issue 4's notes): 1 where one call's minimal traffic exceeds twice the L2 (the data do not stay
// there anyway), else enough copies to exceed it, at most 16. Host: 1.
int l2_rotation_sets(Location loc, double bytes_per_call) {
  const double l2 = loc == Location::Device ? double(device_l2_bytes()) : 0.0;
  if (bytes_per_call >= 2 * l2) return 1;
  return std::min(16, int(std::ceil(2 * l2 / bytes_per_call)));
}

// How device calls are timed (--timing; set once by run_bench before anything is measured):
//   events: CUDA events between back-to-back calls (core/device_timeline.hpp), the calls queued without
//           a host synchronisation between them: the device's time per call, as QUDA's tests measure;
//   wall:   the host clock around each call and a device synchronisation after it: the device time plus
//           one launch and one synchronisation latency (~10 us on the H100), the figures recorded
//           before 2026-11-23's eighth session.
//   batched: CUDA events around batches of kTimingBatch back-to-back calls, none between the calls of a
//           batch (as in a solver's loop): the median over the batches of the time per call.
// Host calls are always timed by the host clock.
enum class DeviceTiming { Events, Wall, Batched };
DeviceTiming device_timing = DeviceTiming::Events;
// The host's time per call to queue the last device calls timed with events (median_seconds): a
// device time per call close to it means the host's launch rate set the pace.
double host_queue_seconds_per_call = std::numeric_limits<double>::quiet_NaN();

const char* timing_description(Location loc) {
  if (loc == Location::Host) return "host clock per call";
  switch (device_timing) {
    case DeviceTiming::Events: return "CUDA events between back-to-back calls";
    case DeviceTiming::Batched: {
      static const std::string batched = fmt::format("CUDA events around batches of {} back-to-back calls", kTimingBatch);
      return batched.c_str();
    }
    default: return "host clock per call, device synchronised after each";
  }
}

// Progress of a benchmark run (issue 31): one line per timed region, after its loop (never inside one),
// on stderr when it is a terminal or LQCD_PROGRESS=1; not with --json. Set by run_bench for its duration.
struct BenchProgress {
  ProgressLine* line = nullptr;
  std::string kernel;
  int regions = 0;
  Stopwatch clock;
};
BenchProgress bench_progress;

void region_timed(int repetitions) {
  if (!bench_progress.line) return;
  ++bench_progress.regions;
  bench_progress.line->update(fmt::format("[bench {}] {} timed region{} ({} calls each after a warm-up) | {}",
                                          bench_progress.kernel, bench_progress.regions,
                                          bench_progress.regions == 1 ? "" : "s", repetitions,
                                          format_duration(bench_progress.clock.seconds())));
}

template <typename F>
double median_seconds(Location loc, int repetitions, F&& f, RegionEnergy* energy = nullptr) {
  f();  // warm-up
  if (loc == Location::Device) detail::device_synchronize();
  // Every process measures or none does (the extra passes below are collective calls).
  const bool metered = energy && comm::min(energy->grid, energy->meter.available() ? 1 : 0) == 1;
  if (metered) energy->meter.start();
  const Stopwatch loop;
  std::vector<double> t;
  if (loc == Location::Device && device_timing != DeviceTiming::Wall) {
    t = device_seconds_per_call(repetitions, f, device_timing == DeviceTiming::Batched ? kTimingBatch : 1,
                                &host_queue_seconds_per_call);
  } else {
    for (int r = 0; r < repetitions; ++r) {
      const Stopwatch w;
      f();
      if (loc == Location::Device) detail::device_synchronize();
      t.push_back(w.seconds());
    }
  }
  long calls = repetitions;
  if (metered && comm::max(energy->grid, loop.seconds()) < 0.5) {
    // NVML's energy counter advances only every ~20-100 ms: over a loop of a few such steps the
    // reading is off by tens of percent, over one shorter than a step it may be zero. So a loop
    // shorter than 0.5 s is repeated, for the energy alone (these calls are not in the median), until
    // 1 s has passed, which makes the reading good to a few percent. The decision is the slowest
    // process's, so that all of them make the same number of (collective) calls.
    while (comm::max(energy->grid, loop.seconds()) < 1.0) {
      for (int r = 0; r < repetitions; ++r) {
        f();
        if (loc == Location::Device && device_timing == DeviceTiming::Wall) detail::device_synchronize();
      }
      if (loc == Location::Device) detail::device_synchronize();
      calls += repetitions;
    }
  }
  if (energy) finish_region_energy(*energy, metered, calls);
  region_timed(repetitions);
  return median(t);
}

// The JSON fields of a region's energy, named PREFIX + energy_joules (per call: one operator
// application, solve or sweep), average_watts (all GPUs of the run together), gflops_per_watt
// (GFLOPS / average_watts; only with `gflops`), energy_seconds and energy_calls (the metered loop);
// null without a reading (the run's energy_note says why).
nlohmann::json energy_fields(const std::string& prefix, const RegionEnergy& e, std::optional<double> gflops) {
  const bool ok = e.reading.available && e.calls > 0;
  nlohmann::json r = {{prefix + "energy_joules", ok ? nlohmann::json(e.reading.joules / double(e.calls)) : nullptr},
                      {prefix + "average_watts", ok ? nlohmann::json(e.reading.watts()) : nullptr},
                      {prefix + "energy_seconds", ok ? nlohmann::json(e.reading.seconds) : nullptr},
                      {prefix + "energy_calls", ok ? nlohmann::json(e.calls) : nullptr}};
  if (gflops)
    r[prefix + "gflops_per_watt"] = ok ? nlohmann::json(e.reading.gflops_per_watt(*gflops)) : nlohmann::json(nullptr);
  return r;
}

// The parts of the face exchange's model, each timed alone (median of `repetitions`) with the
// message sizes of the hopping term on geometry g (parities: of the output; bytes per face site):
// host-staged copies device to host and back (pinned memory, the copy stream), and the MPI messages
// between host buffers (both sides of every split direction at once, as the exchange sends them);
// with NCCL, the device-to-device messages alone (in `mpi`; no copies).
struct ModelParts {
  double d2h = 0, mpi = 0, h2d = 0;
};
struct ModelMessage {
  int mu;
  std::size_t bytes;  // per side
};
// The exchange's messages (FaceExchange::transfers' order and tags) between two byte buffers.
std::vector<comm::Transfer> model_transfers(const Geometry& g, const std::vector<ModelMessage>& messages,
                                            std::byte* send, std::byte* receive) {
  const Dims coords = g.grid_coords();
  std::vector<comm::Transfer> list;
  std::size_t at = 0;
  for (const ModelMessage& msg : messages) {
    const int forward = comm::neighbour_rank(g.grid, coords, msg.mu, +1);
    const int backward = comm::neighbour_rank(g.grid, coords, msg.mu, -1);
    list.push_back({send + at, forward, receive + at, backward, msg.bytes, 2 * msg.mu});
    list.push_back({send + at + msg.bytes, backward, receive + at + msg.bytes, forward, msg.bytes, 2 * msg.mu + 1});
    at += 2 * msg.bytes;
  }
  return list;
}
ModelParts message_model_parts(const Geometry& g, int parities, std::size_t site_bytes, Location loc, int repetitions) {
  std::vector<ModelMessage> messages;
  std::size_t total = 0;
  for (int mu = 0; mu < 4; ++mu)
    if (g.grid[mu] > 1 && g.halo[mu] > 0) {
      const std::size_t b = std::size_t(parities) * std::size_t(g.volume() / (2 * g.local[mu])) * site_bytes;
      messages.push_back({mu, b});
      total += 2 * b;
    }
  ModelParts m;
  if (total == 0) return m;
  if (loc == Location::Device && comm::device_messages_available()) {
    // NCCL, GPU to GPU: the messages alone are the whole chain (no copies).
    Buffer<std::byte> send(total, Location::Device), receive(total, Location::Device);
    const std::vector<comm::Transfer> transfers = model_transfers(g, messages, send.data(), receive.data());
    CopyStream stream;
    m.mpi = median_seconds(loc, repetitions, [&] {
      comm::exchange_on_device(transfers, stream.native());
      stream.synchronize();
    });
    return m;
  }
  PinnedBuffer host_send, host_receive;
  std::byte* hs = host_send.reserve(total);
  std::byte* hr = host_receive.reserve(total);
  std::fill_n(hs, total, std::byte{1});
  const std::vector<comm::Transfer> transfers = model_transfers(g, messages, hs, hr);
  m.mpi = median_seconds(Location::Host, repetitions, [&] {
    comm::PendingMessages pm;
    for (const comm::Transfer& t : transfers) pm.receive(t.receive, t.from, t.bytes, t.tag);
    for (const comm::Transfer& t : transfers) pm.send(t.send, t.to, t.bytes, t.tag);
    pm.wait();
  });
  if (loc == Location::Device) {
    Buffer<std::byte> device(total, Location::Device);
    CopyStream copies;
    m.d2h = median_seconds(loc, repetitions, [&] {
      copies.copy(hs, Location::Host, device.data(), Location::Device, total);
      copies.synchronize();
    });
    m.h2d = median_seconds(loc, repetitions, [&] {
      copies.copy(device.data(), Location::Device, hr, Location::Host, total);
      copies.synchronize();
    });
  }
  return m;
}

// Times one hopping-term call (kernel k with its face exchange overlapped, as the operators run it)
// into `seconds`; `out` holds that call's result on return. On a decomposed lattice also its parts,
// each a median over `repetitions` calls:
//   exchange_seconds: the face messages alone (pack, copies, MPI, copies back);
//   compute_seconds:  the kernels alone (interior and face hops, the messages already there);
//   serial_seconds:   exchange, then kernels, without overlap;
// and what they imply: hidden_fraction = (serial - overlapped) / exchange of the exchange time is
// hidden behind the interior, exposed_seconds = overlapped - compute is not.
template <typename Kernel, typename Real, int LC>
nlohmann::json time_hopping_term(const Kernel& k, const GaugeView<Real, LC>& U, const SpinorField<Real>& in,
                                 SpinorField<Real>& out, Location loc, int repetitions, double& seconds,
                                 RegionEnergy* energy = nullptr) {
  seconds = median_seconds(
      loc, repetitions, [&] { run_hopping_term(k, U, in, out, k.boundary, k.alpha, k.dagger); }, energy);
  const Geometry& g = out.geometry();
  if (!g.has_halo()) return nlohmann::json::object();
  FaceExchange<Real, LC> faces(U, in, out, k.dagger);
  faces.wait();
  const double bytes = faces.bytes_sent();
  const double t_exchange = median_seconds(loc, repetitions, [&] { FaceExchange<Real, LC>(U, in, out, k.dagger).wait(); });
  const double t_compute = median_seconds(loc, repetitions, [&] {
    for_each(loc, out.sites(), k);
    faces.add_face_hops(U, out, k.boundary, k.alpha, k.dagger);
  });
  const double t_serial = median_seconds(loc, repetitions, [&] {
    FaceExchange<Real, LC> f(U, in, out, k.dagger);
    f.wait();
    if (loc == Location::Device) detail::device_synchronize();
    for_each(loc, out.sites(), k);
    f.add_face_hops(U, out, k.boundary, k.alpha, k.dagger);
  });
  const double t_interior = median_seconds(loc, repetitions, [&] { for_each(loc, out.sites(), k); });
  // The interior alone left `out` without the face hops: the whole call again, so that the caller
  // compares the result (difference_to_double_18_real) and not the timing's by-product.
  run_hopping_term(k, U, in, out, k.boundary, k.alpha, k.dagger);
  nlohmann::json r = {{"halo_bytes_sent", bytes},
          {"exchange_seconds", t_exchange},
          {"exchange_GBps", bytes / t_exchange * 1e-9},
          {"compute_seconds", t_compute},
          {"serial_seconds", t_serial},
          {"exposed_seconds", std::max(0.0, seconds - t_compute)},
          {"hidden_fraction", std::clamp((t_serial - seconds) / t_exchange, 0.0, 1.0)},
          {"interior_seconds", t_interior},
          {"mpi_cuda_aware", comm::cuda_aware()},
          {"copy_stream_priority", loc == Location::Device ? copy_stream_priority() : "none (host fields)"},
          {"face_transport", loc == Location::Host ? "mpi (host fields)"
                             : comm::device_messages_available() ? "nccl"
                             : comm::cuda_aware() ? "mpi (CUDA-aware)"
                                                  : "mpi (host-staged)"}};
  if (bytes > 0) {
    // The model: the exchange is a chain of copies and messages, t_exchange ~ t_d2h + t_mpi + t_h2d
    // (host staging; the pack kernel is folded into the copy's wait), each part timed alone here with
    // the exchange's message sizes; with overlap, t ~ max(t_interior, t_exchange) + t_face_hops, with
    // t_face_hops = compute - interior.
    const ModelParts m = message_model_parts(g, out.subset() == Subset::Full ? 2 : 1,
                                             6 * sizeof(typename FaceExchange<Real, LC>::Message), loc,
                                             repetitions);
    const double chain = m.d2h + m.mpi + m.h2d, face_hops = std::max(0.0, t_compute - t_interior);
    r.update({{"model_d2h_seconds", m.d2h},
              {"model_mpi_seconds", m.mpi},
              {"model_h2d_seconds", m.h2d},
              {"model_exchange_seconds", chain},
              {"model_seconds", std::max(t_interior, chain) + face_hops}});
  }
  return r;
}

// A full-lattice spinor field of Gaussian random numbers (the benchmarks' input; never zeros).
SpinorField<double> gaussian_spinor(const Geometry& geom, Location loc, std::uint64_t seed) {
  LexicographicSpinor lex(std::size_t(geom.global_volume()));
  for (std::size_t i = 0; i < lex.size(); ++i) {
    SiteRandom rng(seed, i, RngPurpose::Test, 0, 0);
    for (auto& sp : lex[i].s)
      for (auto& z : sp.c) {
        z.re = rng.gaussian();  // sequenced: argument evaluation order is unspecified
        z.im = rng.gaussian();
      }
  }
  return to_spinor_field(lex, geom, loc);
}

// The links of the Dirac benchmarks: Haar-random (seed 1), or the configuration named by --config
// (any format lqcd reads, checksum and header verified), whose dims must be --dims.
GaugeField<double> benchmark_links(const BenchCommandOptions& opt, const Geometry& geom, Location loc) {
  GaugeField<double> U(geom, loc);
  if (opt.config.empty()) set_hot_gauge(U, 1);
  else U.copy_from(load_configuration(opt.config, load_policy_for(U)).field);
  return U;
}

// Bytes of one spinor and one link in storage precision Real with LC complex components per link.
template <typename Real>
double spinor_bytes() {
  return double(spinor_site_bytes<Real>());
}
template <typename Real>
double link_bytes(int link_components) {
  return 2.0 * link_components * sizeof(stored_t<Real>);
}

// The relative difference |a - b| / |b| of a field in any precision to a double-precision one.
template <typename Real>
double relative_difference(const SpinorField<Real>& a, const SpinorField<double>& b) {
  SpinorField<double> d = b.like();
  convert_precision(d, a);
  axpy(Complex<double>(-1.0), b, d);
  return std::sqrt(norm2(d) / norm2(b));
}

// The Dirac-operator benchmarks (dslash, matpc) with fields and links stored in precision Real
// (double, float, Half) and LC complex numbers per link (9, 6, 4: 18, 12, 8 reals) on a Haar-random
// gauge field. FLOPs per output site as QUDA counts them (DESIGN.md): hopping term 1320, + 552 clover
// term, + 96 twisted-mass site term (with the xpay). Bytes per output site, with a spinor of
// spinor_bytes() and a link of link_bytes():
//   naive   = 8 links + 8 neighbour spinors + 1 output (+ 1 input spinor and 72 clover reals with a
//             site term);
//   minimal = the same with each neighbour spinor read once: 8 links + 1 input + 1 output (+ ...).
// Every run also applies the same operator in double precision with 18-real links to the same input
// and records the relative difference ("difference_to_double_18_real"): the check of the fast path.
template <typename Real, int LC>
nlohmann::json dirac_bench(const BenchCommandOptions& opt, const Geometry& geom, Location loc, double copy_gbps,
                           EnergyMeter& meter) {
  GaugeField<double> U = benchmark_links(opt, geom, loc);
  WilsonParams prm;
  prm.kappa = opt.kappa;
  const bool clover = opt.action == "clover", twisted = opt.action == "twisted_mass";
  if (twisted) prm.mu = opt.mu;
  const SpinorField<double> src = gaussian_spinor(geom, loc, 7);
  const SpinorField<double> src_odd = src.parity_part(1), src_even = src.parity_part(0);
  SpinorField<Real> in_odd(geom, loc, Subset::Odd), in_even(geom, loc, Subset::Even);
  convert_precision(in_odd, src_odd);
  convert_precision(in_even, src_even);
  SpinorField<Real> out_even(geom, loc, Subset::Even);
  SpinorField<double> ref(geom, loc, Subset::Even);
  const double vh = double(geom.half_volume()), processes = double(geom.processes());
  nlohmann::json r = {{"action", opt.action}, {"precision", opt.precision}, {"reconstruct", opt.reconstruct}, {"rhs", 1},
                      {"kappa", opt.kappa}};
  if (twisted) r["mu"] = opt.mu;
  if (clover) r["csw"] = opt.csw;

  // The operators: clover (18-real links, double or single) or Wilson / twisted mass on links of
  // this precision and compression; and the double-precision 18-real reference.
  std::unique_ptr<WilsonCloverOperator<double>> Cd;
  std::unique_ptr<GaugeField<float>> Uf;
  std::shared_ptr<WilsonCloverOperator<compute_t<Real>>> C;
  std::unique_ptr<SchurOperator<Real>> M;
  std::unique_ptr<GaugeField<Real, LC>> Uc;
  std::unique_ptr<SchurOperator<double>> M_ref;
  const WilsonEvenOddOperator<double> W_ref(U, prm);
  if (clover) {
    if constexpr (LC == 9 && !is_fixed_point_v<Real>) {
      Cd = std::make_unique<WilsonCloverOperator<double>>(U, prm, opt.csw);
      if constexpr (std::is_same_v<Real, float>) {
        Uf = std::make_unique<GaugeField<float>>(convert_precision<float>(U));
        C = std::make_shared<WilsonCloverOperator<float>>(*Uf, *Cd);
      } else {
        C = std::make_shared<WilsonCloverOperator<double>>(U, prm, opt.csw);
      }
      M = std::make_unique<WilsonCloverEvenOddOperator<Real>>(C);
      M_ref = std::make_unique<WilsonCloverEvenOddOperator<double>>(
          std::make_shared<WilsonCloverOperator<double>>(U, prm, opt.csw));
    } else {
      fail("internal: clover benchmark with compressed links or half precision");
    }
  } else {
    Uc = std::make_unique<GaugeField<Real, LC>>(convert_links<Real, LC>(U));
    M = std::make_unique<WilsonEvenOddOperator<Real, LC>>(*Uc, prm);
  }

  if (opt.kernel == "dslash") {
    // The hopping term on one parity (with the site term of the action: clover A x or twisted (1 + i c gamma_5) x).
    const double flops = 1320 + (clover ? 552 : twisted ? 96 : 0);
    const double site_bytes = clover ? spinor_bytes<Real>() + 72 * sizeof(compute_t<Real>)
                              : twisted ? spinor_bytes<Real>()
                                        : 0;
    const double link = link_bytes<Real>(LC), spinor = spinor_bytes<Real>();
    // Minimal: the hopping term's own (links and input once, output once: what the visiting order budgets).
    const double naive = 8 * link + 8 * spinor + spinor + site_bytes,
                 minimal = double(hopping_traffic_bytes<Real, LC>()) + site_bytes;
    double t = 0;
    int sets = 1;
    nlohmann::json parts = nlohmann::json::object();
    RegionEnergy energy{meter, geom.grid};
    const double alpha = twisted ? -opt.kappa : 1.0, c5 = twisted ? 2 * opt.kappa * opt.mu : 0.0;
    if (clover) {
      if constexpr (LC == 9 && !is_fixed_point_v<Real>) {
        t = median_seconds(loc, opt.repetitions, [&] { C->hop(out_even, in_odd, &in_even, -opt.kappa); }, &energy);
        Cd->hop(ref, src_odd, &src_even, -opt.kappa);
      }
    } else {
      const WilsonHoppingKernel<Real, LC> k{Uc->view(), in_odd.view(), out_even.view(), in_even.view(), prm.boundary,
                                            alpha,      1.0,           c5,              twisted ? 1 : 0, 0,
                                            hopping_t_tile(geom, hopping_traffic_bytes<Real, LC>())};
      r["t_tile"] = k.t_tile;
      sets = geom.has_halo() ? 1 : opt.rotation_sets > 0 ? opt.rotation_sets : l2_rotation_sets(loc, minimal * vh);
      if (sets > 1) {
        // Copies of the links and fields, one call on each in turn: each call reads from DRAM, as on
        // a lattice larger than L2, instead of finding the previous call's data in L2.
        std::vector<GaugeField<Real, LC>> links;
        std::vector<SpinorField<Real>> ins, xs, outs;
        // (A view holds the device pointers, which moving a field into its vector keeps.)
        std::vector<WilsonHoppingKernel<Real, LC>> kernels{k};
        for (int c = 1; c < sets; ++c) {
          WilsonHoppingKernel<Real, LC> kc = k;
          kc.U = links.emplace_back(convert_links<Real, LC>(U)).view();
          kc.in = ins.emplace_back(in_odd.clone(loc)).view();
          kc.x = xs.emplace_back(in_even.clone(loc)).view();
          kc.out = outs.emplace_back(out_even.like()).view();
          kernels.push_back(kc);
        }
        int call = 0;
        t = median_seconds(
            loc, opt.repetitions, [&] { for_each(loc, out_even.sites(), kernels[std::size_t(call++ % sets)]); }, &energy);
      } else {
        parts = time_hopping_term(k, k.U, in_odd, out_even, loc, opt.repetitions, t, &energy);
      }
      W_ref.hop(ref, src_odd, twisted ? &src_even : nullptr, alpha, c5, 0);
    }
    // Per process (the copy bandwidth is one GPU's); GFLOPS counts all processes.
    r.update({{"seconds", t},
              {"flops_per_site", flops},
              {"bytes_per_site_minimal", minimal},
              {"GFLOPS", flops * vh * processes / t * 1e-9},
              {"GBps_naive", naive * vh / t * 1e-9},
              {"GBps_minimal", minimal * vh / t * 1e-9},
              {"fraction_of_copy", minimal * vh / t * 1e-9 / copy_gbps},
              {"difference_to_double_18_real", relative_difference(out_even, ref)},
              {"l2_rotation_sets", sets},
              {"host_queue_seconds_per_call", loc == Location::Device && device_timing != DeviceTiming::Wall
                                                  ? nlohmann::json(host_queue_seconds_per_call)
                                                  : nlohmann::json(nullptr)}});
    r.update(energy_fields("", energy, flops * vh * processes / t * 1e-9));
    r.update(parts);
  } else {
    // M_hat and M_hat^dag M_hat on the even sites.
    const NormalOperator<Real> N(*M);
    RegionEnergy e1{meter, geom.grid}, e2{meter, geom.grid};
    const double t1 = median_seconds(loc, opt.repetitions, [&] { M->apply(out_even, in_even); }, &e1);
    (clover ? *M_ref : static_cast<const SchurOperator<double>&>(W_ref)).apply(ref, src_even);
    const double difference = relative_difference(out_even, ref);
    const double t2 = median_seconds(loc, opt.repetitions, [&] { N.apply(out_even, in_even); }, &e2);
    const double flops = M->flops_per_site();
    r.update({{"matpc_seconds", t1},
              {"matpc_flops_per_site", flops},
              {"matpc_GFLOPS", flops * vh * processes / t1 * 1e-9},
              {"mdagm_seconds", t2},
              {"mdagm_GFLOPS", 2 * flops * vh * processes / t2 * 1e-9},
              {"difference_to_double_18_real", difference}});
    r.update(energy_fields("matpc_", e1, flops * vh * processes / t1 * 1e-9));
    r.update(energy_fields("mdagm_", e2, 2 * flops * vh * processes / t2 * 1e-9));
  }
  return r;
}

// The hopping term on N = opt.rhs right-hand sides at once (dirac/wilson_multi_rhs.hpp), Wilson or
// twisted mass, one parity, links of precision Real with LC complex components: N Gaussian sources
// in one SpinorBlockField, one kernel that loads each link once per site for all N. Seconds per call
// (all N); FLOPs and bytes per output site count all N right-hand sides:
//   flops   = N x (1320 (+ 96 twisted));
//   naive   = N x (8 links + 8 neighbour spinors + 1 output (+ 1 site-term input)): every thread's loads;
//   minimal = 8 links (once per site, for all N) + N x (1 input + 1 output (+ 1 site-term input)).
// difference_to_double_18_real: the largest over the right-hand sides of the relative difference of
// each rhs's result to WilsonEvenOddOperator<double>::hop (18-real links) on the same source.
template <typename Real, int LC>
nlohmann::json dirac_bench_multi_rhs(const BenchCommandOptions& opt, const Geometry& geom, Location loc,
                                     double copy_gbps, EnergyMeter& meter) {
  const int n = opt.rhs;
  GaugeField<double> U = benchmark_links(opt, geom, loc);
  WilsonParams prm;
  prm.kappa = opt.kappa;
  const bool twisted = opt.action == "twisted_mass";
  if (twisted) prm.mu = opt.mu;
  const GaugeField<Real, LC> Uc = convert_links<Real, LC>(U);
  const WilsonEvenOddOperator<double> W_ref(U, prm);
  const double alpha = twisted ? -opt.kappa : 1.0, c5 = twisted ? 2 * opt.kappa * opt.mu : 0.0;
  SpinorBlockField<Real> in_odd(geom, loc, n, Subset::Odd), in_even(geom, loc, n, Subset::Even),
      out_even(geom, loc, n, Subset::Even);
  std::vector<SpinorField<double>> refs;  // the double 18-real result of each rhs
  for (int j = 0; j < n; ++j) {
    const SpinorField<double> src = gaussian_spinor(geom, loc, 7 + std::uint64_t(j));
    const SpinorField<double> src_odd = src.parity_part(1), src_even = src.parity_part(0);
    SpinorField<Real> odd(geom, loc, Subset::Odd), even(geom, loc, Subset::Even);
    convert_precision(odd, src_odd);
    convert_precision(even, src_even);
    pack_rhs(in_odd, j, odd);
    pack_rhs(in_even, j, even);
    refs.emplace_back(geom, loc, Subset::Even);
    W_ref.hop(refs.back(), src_odd, twisted ? &src_even : nullptr, alpha, c5, 0);
  }
  RegionEnergy energy{meter, geom.grid};
  const double t = median_seconds(
      loc, opt.repetitions,
      [&] { hop_multi_rhs(Uc, out_even, in_odd, twisted ? &in_even : nullptr, prm.boundary, alpha, 1.0, c5, 0); },
      &energy);
  double difference = 0;
  SpinorField<Real> out(geom, loc, Subset::Even);
  for (int j = 0; j < n; ++j) {
    unpack_rhs(out, out_even, j);
    difference = std::max(difference, relative_difference(out, refs[std::size_t(j)]));
  }
  const double flops_per_rhs = 1320 + (twisted ? 96 : 0), flops = n * flops_per_rhs;
  const double link = link_bytes<Real>(LC), spinor = spinor_bytes<Real>(), site_bytes = twisted ? spinor : 0;
  const double naive = n * (8 * link + 9 * spinor + site_bytes), minimal = 8 * link + n * (2 * spinor + site_bytes);
  const double vh = double(geom.half_volume());
  const double gflops = flops * vh / t * 1e-9;
  nlohmann::json r = {{"action", opt.action},
                      {"precision", opt.precision},
                      {"reconstruct", opt.reconstruct},
                      {"rhs", n},
                      {"kappa", opt.kappa},
                      {"seconds", t},
                      {"seconds_per_rhs", t / n},
                      {"flops_per_site", flops},
                      {"flops_per_site_per_rhs", flops_per_rhs},
                      {"bytes_per_site_minimal", minimal},
                      {"bytes_per_site_naive", naive},
                      {"GFLOPS", gflops},
                      {"GBps_naive", naive * vh / t * 1e-9},
                      {"GBps_minimal", minimal * vh / t * 1e-9},
                      {"fraction_of_copy", minimal * vh / t * 1e-9 / copy_gbps},
                      {"difference_to_double_18_real", difference}};
  if (twisted) r["mu"] = opt.mu;
  r.update(energy_fields("", energy, gflops));
  return r;
}

// The storages the multi-RHS dslash is built for (wilson_multi_rhs.cpp).
bool multi_rhs_storage_available(const BenchCommandOptions& opt) {
  return opt.reconstruct == 12 || (opt.reconstruct == 18 && opt.precision == "single");
}

nlohmann::json dirac_bench_multi_rhs_as_asked(const BenchCommandOptions& opt, const Geometry& geom, Location loc,
                                              double copy_gbps, EnergyMeter& meter) {
  if (opt.precision == "half" && opt.reconstruct == 12)
    return dirac_bench_multi_rhs<Half, 6>(opt, geom, loc, copy_gbps, meter);
  if (opt.precision == "single" && opt.reconstruct == 12)
    return dirac_bench_multi_rhs<float, 6>(opt, geom, loc, copy_gbps, meter);
  if (opt.precision == "single" && opt.reconstruct == 18)
    return dirac_bench_multi_rhs<float, 9>(opt, geom, loc, copy_gbps, meter);
  if (opt.precision == "double" && opt.reconstruct == 12)
    return dirac_bench_multi_rhs<double, 6>(opt, geom, loc, copy_gbps, meter);
  fail("internal: multi-RHS dslash with --precision {} --reconstruct {}", opt.precision, opt.reconstruct);
}

// dirac_bench in the precision and link storage the options name (checked by run_bench).
nlohmann::json dirac_bench_as_asked(const BenchCommandOptions& opt, const Geometry& geom, Location loc,
                                    double copy_gbps, EnergyMeter& meter) {
  if (opt.rhs > 1) return dirac_bench_multi_rhs_as_asked(opt, geom, loc, copy_gbps, meter);
  const int lc = opt.reconstruct / 2;
  if (opt.precision == "half") {
    return lc == 6 ? dirac_bench<Half, 6>(opt, geom, loc, copy_gbps, meter)
                   : dirac_bench<Half, 4>(opt, geom, loc, copy_gbps, meter);
  }
  if (opt.precision == "single") {
    return lc == 9 ? dirac_bench<float, 9>(opt, geom, loc, copy_gbps, meter)
           : lc == 6 ? dirac_bench<float, 6>(opt, geom, loc, copy_gbps, meter)
                     : dirac_bench<float, 4>(opt, geom, loc, copy_gbps, meter);
  }
  return lc == 9 ? dirac_bench<double, 9>(opt, geom, loc, copy_gbps, meter)
         : lc == 6 ? dirac_bench<double, 6>(opt, geom, loc, copy_gbps, meter)
                   : dirac_bench<double, 4>(opt, geom, loc, copy_gbps, meter);
}

// The system a solver benchmark solves with the double-precision even-odd operator M_hat and source b:
// M_hat x = b by CGNR (p.hermitian = false), or the normal equations A x = M_hat^dag b, A = M_hat^dag
// M_hat, by CG on A (p.hermitian = true, QUDA's "normal-operator" solve), whose tolerance is on A's
// residual. solve() runs it in double (M_sloppy is M) or with corrections by M_sloppy.
class SolveSystem {
 public:
  SolveSystem(const LinearOperator<double>& M, const SpinorField<double>& b, const SolverParams& p)
      : M_(M), A_(M), b_(M.make_field()), p_(p) {
    if (p.hermitian) M.apply_dagger(b_, b);
    else b_.copy_from(b);
  }
  template <typename Sloppy>
  SolverResult solve(SpinorField<double>& x, const LinearOperator<Sloppy>& M_sloppy) const {
    const LinearOperator<double>& outer = p_.hermitian ? static_cast<const LinearOperator<double>&>(A_) : M_;
    if constexpr (std::is_same_v<Sloppy, double>) {
      return lqcd::solve(outer, x, b_, p_);
    } else if (p_.hermitian) {
      const NormalOperator<Sloppy> A_sloppy(M_sloppy);
      return solve_mixed(outer, A_sloppy, x, b_, p_);
    } else {
      return solve_mixed(outer, M_sloppy, x, b_, p_);
    }
  }

 private:
  const LinearOperator<double>& M_;
  NormalOperator<double> A_;
  SpinorField<double> b_;
  SolverParams p_;
};

// The even-odd Wilson / twisted-mass CG of solver_bench with links of LC complex components in every
// precision: returns the median seconds per solve and the last result.
template <int LC>
double wilson_solver_seconds(const BenchCommandOptions& opt, const GaugeField<double>& U, const WilsonParams& prm,
                             const SolverParams& p, const SpinorField<double>& b, SpinorField<double>& x,
                             SolverResult& last, RegionEnergy& energy) {
  const Location loc = U.location();
  const GaugeField<double, LC> Ud = convert_links<double, LC>(U);
  const WilsonEvenOddOperator<double, LC> M(Ud, prm);
  // --system normal: CG on M_hat^dag M_hat x = M_hat^dag b (p.hermitian); matpc: CGNR on M_hat x = b.
  const SolveSystem system(M, b, p);
  auto time_solves = [&](const auto& M_sloppy) {
    return median_seconds(
        loc, opt.repetitions,
        [&] {
          set_zero(x);
          last = system.solve(x, M_sloppy);
        },
        &energy);
  };
  if (opt.precision == "single") {
    const GaugeField<float, LC> Uf = convert_links<float, LC>(U);
    return time_solves(WilsonEvenOddOperator<float, LC>(Uf, prm));
  }
  if (opt.precision == "half") {
    if constexpr (LC != 9) {
      const GaugeField<Half, LC> Uh = convert_links<Half, LC>(U);
      return time_solves(WilsonEvenOddOperator<Half, LC>(Uh, prm));
    }
    fail("internal: half precision with 18-real links");
  }
  return time_solves(M);
}

// The multi-RHS CG (solvers/krylov/multi_rhs_cg.hpp) on N = opt.rhs sources at once against the same N
// solves one at a time, on the normal equations M_hat^dag M_hat x_j = M_hat^dag b_j (--system normal),
// 12-real links, Wilson or twisted mass, double or double with single / half corrections: median
// seconds per call of the block solve and of the N one-field solves (SolveSystem), and their ratio
// per solve. The block solver's per-rhs iteration counts should equal the one-field ones.
nlohmann::json multi_rhs_solver_bench(const BenchCommandOptions& opt, const GaugeField<double>& U,
                                      const FermionParams& f, const SolverParams& p, EnergyMeter& meter) {
  const int n = opt.rhs;
  const Geometry& geom = U.geometry();
  const Location loc = U.location();
  const GaugeField<double, 6> Ud = convert_links<double, 6>(U);
  const WilsonEvenOddOperator<double, 6> M(Ud, f.wilson);
  const WilsonEvenOddMultiRHS<double, 6> Mb(Ud, f.wilson, n);
  std::vector<SpinorField<double>> b;  // M_hat^dag b_j: the normal equations' sources
  SpinorBlockField<double> bb = Mb.make_block(), xb = Mb.make_block();
  for (int j = 0; j < n; ++j) {
    const SpinorField<double> g = gaussian_spinor(geom, loc, 9 + std::uint64_t(j)).parity_part(0);
    b.push_back(M.make_field());
    M.apply_dagger(b.back(), g);
    pack_rhs(bb, j, b.back());
  }
  SolverResult block_result, one_result;
  std::vector<int> one_iterations(std::size_t(n), 0);
  RegionEnergy e_block{meter, geom.grid}, e_one{meter, geom.grid};
  SpinorField<double> x = M.make_field();
  SolverParams one = p;  // one field at a time: CG on A = M_hat^dag M_hat (SolveSystem with b already M_hat^dag b)
  one.hermitian = true;
  const NormalOperator<double> A(M);
  auto time_both = [&]<typename Sloppy>(const WilsonEvenOddMultiRHS<Sloppy, 6>& Mb_sloppy,
                                        const WilsonEvenOddOperator<Sloppy, 6>& M_sloppy) {
    const double t_block = median_seconds(
        loc, opt.repetitions,
        [&] {
          set_zero(xb);
          if constexpr (std::is_same_v<Sloppy, double>) block_result = solve_normal_multi_rhs(Mb, xb, bb, p);
          else block_result = solve_normal_multi_rhs_mixed(Mb, Mb_sloppy, xb, bb, p);
        },
        &e_block);
    const NormalOperator<Sloppy> A_sloppy(M_sloppy);
    const double t_one = median_seconds(
        loc, opt.repetitions,
        [&] {
          for (int j = 0; j < n; ++j) {
            set_zero(x);
            if constexpr (std::is_same_v<Sloppy, double>) one_result = lqcd::solve(A, x, b[std::size_t(j)], one);
            else one_result = solve_mixed(A, A_sloppy, x, b[std::size_t(j)], one);
            one_iterations[std::size_t(j)] = one_result.iterations;
          }
        },
        &e_one);
    return std::pair{t_block, t_one};
  };
  std::pair<double, double> t;
  if (opt.precision == "single") {
    const GaugeField<float, 6> Uf = convert_links<float, 6>(U);
    t = time_both(WilsonEvenOddMultiRHS<float, 6>(Uf, f.wilson, n), WilsonEvenOddOperator<float, 6>(Uf, f.wilson));
  } else if (opt.precision == "half") {
    const GaugeField<Half, 6> Uh = convert_links<Half, 6>(U);
    t = time_both(WilsonEvenOddMultiRHS<Half, 6>(Uh, f.wilson, n), WilsonEvenOddOperator<Half, 6>(Uh, f.wilson));
  } else {
    t = time_both(Mb, M);
  }
  const auto [t_block, t_one] = t;
  const std::string precision = opt.precision == "double" ? "double" : "double/" + opt.precision;
  nlohmann::json r = {{"action", opt.action},
                      {"precision", precision},
                      {"reconstruct", 12},
                      {"kappa", opt.kappa},
                      {"tolerance", opt.tolerance},
                      {"inner_tolerance", p.precision == SolverPrecision::Double ? nlohmann::json(nullptr)
                                                                                   : nlohmann::json(p.inner_tolerance)},
                      {"system", "normal: M_hat^dag M_hat x_j = M_hat^dag b_j, tolerance on each residual"},
                      {"rhs", n},
                      {"seconds_per_call", t_block},
                      {"seconds_per_solve", t_block / n},
                      {"seconds_per_solve_one_at_a_time", t_one / n},
                      {"speedup_per_solve", t_one / t_block},
                      {"iterations", block_result.iterations},
                      {"rhs_iterations", block_result.rhs_iterations},
                      {"one_at_a_time_iterations", one_iterations},
                      {"true_residual", block_result.true_residual},
                      {"corrections", block_result.corrections},
                      {"GFLOPS", block_result.gflops},
                      {"stream_resident", stream_resident_solver(loc, geom.processes())}};
  r.update(energy_fields("", e_block, block_result.gflops));  // energy_joules: per call (N solves)
  return r;
}

// The [multigrid] table of --solver multigrid: defaults overridden by the --multigrid KEY=VALUE settings.
MultigridParams bench_multigrid_params(const BenchCommandOptions& opt) {
  Config c(multigrid_schema(), "bench");
  std::string text;
  for (const std::string& kv : opt.multigrid) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      fail("--multigrid {}: expected KEY=VALUE with a key of the [multigrid] table (e.g. test_vectors=32)", kv);
    text += "multigrid." + kv.substr(0, eq) + " = " + kv.substr(eq + 1) + "\n";
  }
  c.merge_text(text, "--multigrid");
  return read_multigrid_params(c);
}

// --rhs N with the multigrid: N Gaussian sources solved together (solve_multigrid on a block; issue 46)
// with the same setup, median time per block solve, against N times the single solve's t_single.
template <typename Real>
nlohmann::json multigrid_block_bench(const BenchCommandOptions& opt, const DiracOperators& ops,
                                     MultigridPreconditioner<Real>& mg, const SolverParams& p, double t_single,
                                     double setup_seconds) {
  const int n = opt.rhs;
  const Geometry& geom = ops.full->geometry();
  const Location loc = ops.full->location();
  std::vector<SpinorField<double>> b, x;
  for (int j = 0; j < n; ++j) {
    b.push_back(gaussian_spinor(geom, loc, 9 + std::uint64_t(j)));
    x.push_back(ops.full->make_field());
  }
  std::vector<SolverResult> last;
  mg.reset_solve_timings();
  int solves = 0;
  const double t = median_seconds(loc, opt.repetitions, [&] {
    for (SpinorField<double>& xj : x) set_zero(xj);
    last = solve_multigrid(*ops.full, mg, x, b, p);
    ++solves;
  });
  const MultigridTimings& s = mg.timings();
  const double per = 1.0 / solves;
  int lo = last[0].iterations, hi = lo;
  double worst = 0;
  for (const SolverResult& r : last) {
    lo = std::min(lo, r.iterations);
    hi = std::max(hi, r.iterations);
    worst = std::max(worst, r.true_residual);
  }
  return {{"rhs", n},
          {"seconds_block_solve", t},
          {"seconds_per_rhs_block", t / n},
          {"seconds_setup_plus_rhs_block", setup_seconds + t},
          {"block_speedup_per_rhs", n * t_single / t},
          {"block_iterations_min", lo},
          {"block_iterations_max", hi},
          {"block_true_residual_max", worst},
          {"block_coarse_iterations_per_cycle", s.cycles > 0 ? double(s.coarse_iterations) / double(s.cycles) : 0.0},
          {"seconds_per_block_solve_smoother", per * s.smoother},
          {"seconds_per_block_solve_transfer", per * s.transfer},
          {"seconds_per_block_solve_coarse_solves", per * s.coarse_solve},
          {"seconds_per_block_solve_outer_gcr", t - per * (s.smoother + s.transfer + s.coarse_solve)}};
}

// The multigrid (solvers/multigrid/multigrid.hpp) on the full system M x = b, b Gaussian random, from x = 0 to
// the tolerance on ||b - M x|| / ||b||, with the cycle in the --precision asked (double or single):
// the setup timed once (its parts apart), then the median time per solve; where a solve's time goes
// (fine smoother, transfers, coarse solves, the outer flexible GCR); the rates of the coarse operator
// and of the smoother's fine operator against the copy bandwidth, and the coarse operator on a block of
// 12 right-hand sides against 12 single applications (coarse_operator_block12_*; issue 46).
// setup_plus_12_solves is what one propagator costs one at a time; with --rhs N, the N solved together
// (multigrid_block_bench).
nlohmann::json multigrid_solver_bench(const BenchCommandOptions& opt, const GaugeField<double>& U,
                                      const FermionParams& f, const SolverParams& p, double copy_gbps,
                                      EnergyMeter& meter) {
  const Location loc = U.location();
  const Geometry& geom = U.geometry();
  const bool single = opt.precision == "single";
  const MultigridParams mp = bench_multigrid_params(opt);
  const DiracOperators ops = make_dirac_operators(U, f, single ? SloppyPrecision::Single : SloppyPrecision::None);
  const SpinorField<double> b = gaussian_spinor(geom, loc, 9);
  SpinorField<double> x = ops.full->make_field();
  RegionEnergy energy{meter, geom.grid};
  auto run = [&]<typename Real>(const LinearOperator<Real>& D) {
    MultigridPreconditioner<Real> mg(D, mp);
    mg.setup();
    const MultigridTimings setup = mg.timings();
    SolverResult last;
    mg.reset_solve_timings();
    int solves = 0;
    const double t = median_seconds(
        loc, opt.repetitions,
        [&] {
          set_zero(x);
          last = solve_multigrid(*ops.full, mg, x, b, p);
          ++solves;
        },
        &energy);
    const MultigridTimings& s = mg.timings();
    const double per = 1.0 / solves;
    // The operators' rates: the coarse operator (9 blocks per site) and the smoother's fine operator.
    const CoarseOperator<Real>& Dc = mg.coarse_operator();
    SpinorField<Real> fin(geom, loc), fout(geom, loc);
    convert_precision(fin, b);  // a copy for Real = double
    CoarseField<Real> cin = Dc.make_field(), cout = Dc.make_field();
    mg.restrict_to_coarse(cin, fin);
    const double t_coarse = median_seconds(loc, opt.repetitions, [&] { Dc.apply(cout, cin); });
    // The same operator on a block of 12 right-hand sides in one application (issue 46: each link word
    // read once for all of them), against 12 single applications.
    constexpr int kBlockRhs = 12;
    CoarseBlockField<Real> bin(Dc.lattice(), Dc.dof(), kBlockRhs, loc), bout(Dc.lattice(), Dc.dof(), kBlockRhs, loc);
    for (int j = 0; j < kBlockRhs; ++j) pack_rhs(bin, j, cin);
    const double t_coarse_block = median_seconds(loc, opt.repetitions, [&] { Dc.apply(bout, bin); });
    // The even-odd coarse operator that the coarse solves apply, likewise (0 where they run on the whole
    // coarse lattice); its traffic floor is its hopping blocks (CoarseSchurComplement::hop_bytes).
    const CoarseSchurComplement<Real>* schur = mg.coarse_schur();
    double t_schur = 0, t_schur_block = 0;
    if (schur != nullptr) {
      t_schur = median_seconds(loc, opt.repetitions, [&] { schur->apply(cout, cin); });
      t_schur_block = median_seconds(loc, opt.repetitions, [&] { schur->apply(bout, bin); });
    }
    const double t_fine = median_seconds(loc, opt.repetitions, [&] { D.apply(fout, fin); });
    const double coarse_bytes = Dc.bytes_per_site() * double(Dc.lattice().sites);
    // The fine operator's minimal traffic: 8 links (18 reals), input and output spinors, and with a
    // clover term its 72 reals.
    const double fine_bytes = double(geom.volume()) * sizeof(Real) *
                              (4 * 18 + 2 * 24 + (f.action == FermionAction::Clover ? 72 : 0));
    const double coarse_iterations_per_cycle = s.cycles > 0 ? double(s.coarse_iterations) / double(s.cycles) : 0.0;
    const double outer = t - per * (s.smoother + s.transfer + s.coarse_solve);
    nlohmann::json r = {
        {"action", opt.action},
        {"precision", single ? "double/single" : "double"},
        {"kappa", opt.kappa},
        {"mu", f.wilson.mu},
        {"tolerance", opt.tolerance},
        {"solver", "multigrid"},
        {"system", "full: M x = b by flexible GCR with the multigrid cycle, tolerance on ||b - M x|| / ||b||"},
        {"multigrid", {{"block", mp.block},
                       {"test_vectors", mp.test_vectors},
                       {"coarse", Dc.lattice().dims()},
                       {"coarse_components", Dc.dof()},
                       {"setup_iterations", mp.setup_iterations},
                       {"adaptive_cycles", mp.adaptive_cycles},
                       {"smoother", mp.smoother == MultigridSmoother::Schwarz ? "sap" : "mr"},
                       {"block_iterations", mp.block_iterations},
                       {"pre_smoothing", mp.pre_smoothing},
                       {"post_smoothing", mp.post_smoothing},
                       {"coarse_tolerance", mp.coarse_tolerance},
                       {"coarse_max_iterations", mp.coarse_max_iterations},
                       {"outer_restart", mp.outer_restart},
                       {"outer_recycle", mp.outer_recycle},
                       {"outer_double_restart", mp.outer_double_restart},
                       {"coarse_mu_factor", mp.coarse_mu_factor},
                       {"coarse_even_odd", mg.info().coarse_even_odd},
                       {"coarse_half", mp.coarse_half},
                       {"coarse_deflation", mp.coarse_deflation},
                       {"levels", mp.levels},
                       {"coarse_block", mp.coarse_block},
                       {"coarse_test_vectors", mp.coarse_test_vectors},
                       {"coarse_setup_iterations", mp.coarse_setup_iterations},
                       {"coarse_smoothing", mp.coarse_smoothing},
                       {"coarsest", mg.info().coarsest},
                       {"coarsest_components", mg.info().coarsest_dof},
                       {"coarsest_tolerance", mp.coarsest_tolerance},
                       {"coarsest_max_iterations", mp.coarsest_max_iterations}}},
        {"seconds_setup", setup.setup()},
        {"seconds_setup_test_vectors", setup.setup_vectors},
        {"seconds_setup_coarse_operator", setup.setup_coarse},
        {"seconds_setup_orthonormalise", setup.setup_orthonormalise},
        {"seconds_per_solve", t},
        {"seconds_setup_plus_12_solves", setup.setup() + 12 * t},
        {"iterations", last.iterations},
        {"true_residual", last.true_residual},
        {"coarse_iterations_per_cycle", coarse_iterations_per_cycle},
        {"coarsest_iterations_per_coarse_iteration",
         s.coarse_iterations > 0 ? double(s.coarsest_iterations) / double(s.coarse_iterations) : 0.0},
        {"seconds_per_solve_smoother", per * s.smoother},
        {"seconds_per_solve_transfer", per * s.transfer},
        {"seconds_per_solve_coarse_solves", per * s.coarse_solve},
        {"seconds_per_solve_outer_gcr", outer},
        {"coarse_operator_seconds", t_coarse},
        {"coarse_operator_GBps", coarse_bytes / t_coarse * 1e-9},
        {"coarse_operator_fraction_of_copy", coarse_bytes / t_coarse * 1e-9 / copy_gbps},
        {"coarse_operator_GFLOPS", Dc.flops_per_site() * double(Dc.lattice().sites) / t_coarse * 1e-9},
        {"coarse_operator_block12_seconds", t_coarse_block},
        {"coarse_operator_block12_GBps", Dc.bytes_per_site(kBlockRhs) * double(Dc.lattice().sites) / t_coarse_block * 1e-9},
        {"coarse_operator_block12_GFLOPS",
         kBlockRhs * Dc.flops_per_site() * double(Dc.lattice().sites) / t_coarse_block * 1e-9},
        {"coarse_operator_block12_speedup_per_rhs", kBlockRhs * t_coarse / t_coarse_block},
        {"coarse_schur_seconds", t_schur},
        {"coarse_schur_block12_seconds", t_schur_block},
        {"coarse_schur_block12_speedup_per_rhs", schur != nullptr ? kBlockRhs * t_schur / t_schur_block : 0.0},
        {"coarse_schur_fraction_of_copy", schur != nullptr ? schur->hop_bytes() / t_schur * 1e-9 / copy_gbps : 0.0},
        {"coarse_schur_block12_fraction_of_copy",
         schur != nullptr ? schur->hop_bytes() / t_schur_block * 1e-9 / copy_gbps : 0.0},
        {"coarse_schur_block12_GFLOPS",
         // two passes over half the sites, 8 FLOPs per complex multiply-add
         schur != nullptr ? kBlockRhs * 8.0 * (kStencilDirections - 1) * Dc.dof() * Dc.dof() *
                                double(Dc.lattice().sites) / t_schur_block * 1e-9
                          : 0.0},
        {"fine_operator_seconds", t_fine},
        {"fine_operator_GBps", fine_bytes / t_fine * 1e-9},
        {"fine_operator_fraction_of_copy", fine_bytes / t_fine * 1e-9 / copy_gbps},
        {"GFLOPS", last.gflops}};
    r.update(energy_fields("", energy, last.gflops));
    if (opt.rhs > 1) r.update(multigrid_block_bench(opt, ops, mg, p, t, setup.setup()));
    return r;
  };
  if (single) return run(*ops.full_single);
  return run(*ops.full);
}

// CG on the even-odd normal equations (as QUDA's test; --system, SolveSystem) from x = 0 to the tolerance, in
// double or in double with single- or half-precision corrections; median time per solve after one
// warm-up solve. Wilson and twisted mass use links with --reconstruct reals in every precision; clover
// 18-real links, double or single.
nlohmann::json solver_bench(const BenchCommandOptions& opt, const Geometry& geom, Location loc, double copy_gbps,
                            EnergyMeter& meter) {
  GaugeField<double> U = benchmark_links(opt, geom, loc);
  FermionParams f;
  f.action = fermion_action_from_name(opt.action, "--action");
  f.wilson.kappa = opt.kappa;
  if (f.action == FermionAction::TwistedMass) f.wilson.mu = opt.mu;
  if (f.action == FermionAction::Clover) f.csw = opt.csw;
  check_fermion_params(f);
  const bool single = opt.precision == "single";
  SolverParams p;
  p.type = solver_type_from_name(opt.solver, "--solver");
  p.tolerance = opt.tolerance;
  p.inner_tolerance = opt.inner_tolerance;
  p.precision = solver_precision_from_name(opt.precision, "--precision");
  p.hermitian = opt.system == "normal";
  if (p.type == SolverType::Multigrid) {
    p.max_iterations = opt.max_iterations;  // a multigrid that needs more has failed: its error then says so
    return multigrid_solver_bench(opt, U, f, p, copy_gbps, meter);
  }
  if (opt.rhs > 1) return multi_rhs_solver_bench(opt, U, f, p, meter);
  const SpinorField<double> b = gaussian_spinor(geom, loc, 9).parity_part(0);
  SpinorField<double> x(geom, loc, Subset::Even);
  SolverResult last;
  RegionEnergy energy{meter, geom.grid};
  double t = 0;
  if (f.action == FermionAction::Clover) {
    const DiracOperators ops = make_dirac_operators(U, f, single ? SloppyPrecision::Single : SloppyPrecision::None);
    const SolveSystem system(*ops.even_odd, b, p);
    t = median_seconds(
        loc, opt.repetitions,
        [&] {
          set_zero(x);
          last = single ? system.solve(x, *ops.even_odd_single) : system.solve(x, *ops.even_odd);
        },
        &energy);
  } else {
    const int lc = opt.reconstruct / 2;
    t = lc == 9   ? wilson_solver_seconds<9>(opt, U, f.wilson, p, b, x, last, energy)
        : lc == 6 ? wilson_solver_seconds<6>(opt, U, f.wilson, p, b, x, last, energy)
                  : wilson_solver_seconds<4>(opt, U, f.wilson, p, b, x, last, energy);
  }
  const std::string precision = opt.precision == "double" ? "double" : "double/" + opt.precision;
  nlohmann::json r = {{"action", opt.action},         {"precision", precision},
                      {"reconstruct", opt.reconstruct}, {"kappa", opt.kappa},
                      {"mu", f.wilson.mu},
                      {"tolerance", opt.tolerance},     {"seconds_per_solve", t},
                      {"inner_tolerance", p.precision == SolverPrecision::Double ? nlohmann::json(nullptr)
                                                                                   : nlohmann::json(p.inner_tolerance)},
                      {"solver", opt.solver},
                      {"system", p.hermitian ? "normal: M_hat^dag M_hat x = M_hat^dag b, tolerance on its residual"
                                 : fmt::format("matpc: M_hat x = b by {}, tolerance on ||b - M_hat x|| / ||b||",
                                               p.type == SolverType::CG ? "CGNR" : solver_type_name(p.type))},
                      {"iterations", last.iterations},  {"true_residual", last.true_residual},
                      {"corrections", last.corrections}, {"GFLOPS", last.gflops},
                      // The solver with its scalars on the device (solvers/solver.hpp).
                      {"stream_resident", p.type != SolverType::GCR && stream_resident_solver(loc, geom.processes())}};
  r.update(energy_fields("", energy, last.gflops));  // energy_joules: per solve
  return r;
}

// --dims over --grid (default: all processes along t) for this rank.
Geometry dirac_geometry(const BenchCommandOptions& opt) {
  return decompose_over_run(parse_dims_option(opt.dims, "--dims"), opt.grid, "--dims");
}

// A real option that must be finite (and positive where asked): nan or inf would time garbage.
void check_real_option(double v, const char* option, bool positive) {
  if (!std::isfinite(v) || (positive && !(v > 0)))
    fail("{}: expected a {}number, got {}", option, positive ? "positive " : "finite ", v);
}

}  // namespace

namespace {

// lqcd bench distill: (1) the contraction of distillation_correlators on random perambulators and
// elementals of --nv on the T of --dims, 16 gammas x 3 momenta (48 operators), its GEMM FLOPs per
// second against a large square ZGEMM measured in the same run (the GEMM peak); (2) the Laplacian
// eigenvectors (--nv) of two time slices of the spatial size of --dims, on links from a hot start,
// 20 heatbath sweeps at beta 6.0 and 10 steps of 3D stout smearing (rho 0.1): seconds per slice.
nlohmann::json distill_bench(const BenchCommandOptions& opt, Location loc) {
  const Dims dims = parse_dims_option(opt.dims, "--dims");
  if (opt.nv < 1) fail("--nv {}: expected >= 1", opt.nv);
  using C = Complex<double>;
  const auto fill = [&](Buffer<C>& b, std::uint64_t seed) {
    std::vector<C> h(b.size());
    for (std::size_t i = 0; i < h.size(); ++i) {
      SiteRandom rng(seed, i, RngPurpose::Test, 0, 0);
      h[i] = C(rng.gaussian(), rng.gaussian());
    }
    detail::copy_bytes(b.data(), loc, h.data(), Location::Host, h.size() * sizeof(C));
  };
  // (0) The GEMM peak: C = A B, square.
  const int n = loc == Location::Device ? 8192 : 512;
  Buffer<C> a(std::size_t(n) * n, loc), b(std::size_t(n) * n, loc), c(std::size_t(n) * n, loc);
  fill(a, 1);
  fill(b, 2);
  const double t_zgemm = median_seconds(loc, opt.repetitions, [&] {
    gemm(loc, MatrixOp::None, MatrixOp::None, n, n, n, a.data(), n, b.data(), n, c.data(), n);
  });
  const double zgemm_tflops = 8.0 * n * double(n) * n / t_zgemm * 1e-12;
  // (1) The contraction.
  const int nv = opt.nv, nt = dims[3];
  Perambulator tau;
  tau.nv = nv;
  tau.nt = nt;
  tau.local_nt = nt;
  tau.data = Buffer<C>(std::size_t(nt) * 16 * nv * nv, loc);
  fill(tau.data, 3);
  Elementals phi;
  phi.nv = nv;
  phi.nt = nt;
  phi.local_nt = nt;
  phi.kinds = {{{0, 0, 0}, -1}, {{1, 0, 0}, -1}, {{1, 1, 0}, -1}};
  phi.data = Buffer<C>(phi.kinds.size() * nt * std::size_t(nv) * nv, loc);
  fill(phi.data, 4);
  std::vector<DistillationOperator> ops;
  for (const ElementalKind& k : phi.kinds)
    for (int g = 0; g < 16; ++g) ops.push_back({g, k});
  double gemm_flops = 0;
  const double t_contract = median_seconds(loc, opt.repetitions, [&] {
    gemm_flops = distillation_correlators(tau, phi, ops).gemm_flops;
  });
  const double contract_tflops = gemm_flops / t_contract * 1e-12;
  // (2) Eigenvectors of two slices.
  const Dims slab{dims[0], dims[1], dims[2], 2};
  const Geometry geom = Geometry::single_process(slab);
  GaugeField<double> U(geom, loc);
  set_hot_gauge(U, 1);
  const GaugeAction action = GaugeAction::from_name("wilson", 6.0);
  for (std::uint32_t sweep = 0; sweep < 20; ++sweep) heatbath_sweep(U, action, 1, sweep);
  StoutParams stout;
  stout.steps = 10;
  stout.spatial_only = true;
  const GaugeField<double> smeared = stout_smear(U, stout);
  LaplacianEigenParams ep;
  ep.nv = nv;
  const Stopwatch watch;
  const LaplacianEigenvectors E = laplacian_eigenvectors(smeared, ep);
  const double t_eigen = watch.seconds() / 2;
  int iterations = 0;
  double eigen_flops = 0;
  for (const auto& sl : E.slices) {
    iterations += sl.iterations;
    eigen_flops += sl.flops;
  }
  nlohmann::json r = {{"benchmark", "distill"},
                      {"dims", dims},
                      {"nv", nv},
                      {"operators", ops.size()},
                      {"repetitions", opt.repetitions},
                      {"zgemm_n", n},
                      {"zgemm_s", t_zgemm},
                      {"zgemm_tflops", zgemm_tflops},
                      {"contraction_s", t_contract},
                      {"contraction_gemm_flops", gemm_flops},
                      {"contraction_tflops", contract_tflops},
                      {"contraction_fraction_of_zgemm", contract_tflops / zgemm_tflops},
                      {"eigen_dims", slab},
                      {"eigen_s_per_slice", t_eigen},
                      {"eigen_iterations_per_slice", iterations / 2.0},
                      {"eigen_tflops", eigen_flops / (2 * t_eigen) * 1e-12},
                      {"eigen_max_residual", *std::max_element(E.residuals.begin(), E.residuals.end())}};
  if (!opt.json)
    std::cout << fmt::format(
        "# distill benchmark: nv = {}, T = {}, {} operators (16 gammas x 3 momenta), median of {}\n"
        "  ZGEMM {}^3                      {:9.3f} ms   {:7.2f} TFLOPS (the GEMM peak of this run)\n"
        "  contraction (all t, all pairs)  {:9.3f} ms   {:7.2f} TFLOPS   {:5.1f}% of ZGEMM\n"
        "  eigenvectors {}x{}x{}, nv {}     {:9.3f} s per slice ({:.1f} filter rounds, max residual {:.2e})\n",
        nv, nt, ops.size(), opt.repetitions, n, t_zgemm * 1e3, zgemm_tflops, t_contract * 1e3, contract_tflops,
        100 * contract_tflops / zgemm_tflops, dims[0], dims[1], dims[2], nv, t_eigen, iterations / 2.0,
        r["eigen_max_residual"].get<double>());
  return r;
}

}  // namespace

int run_bench(const BenchCommandOptions& opt) {
  ProgressLine progress(!opt.json);
  bench_progress.line = &progress;
  bench_progress.kernel = opt.kernel;
  struct Detach {
    ~Detach() { bench_progress.line = nullptr; }
  } detach;
  const std::vector<std::string> kernels = {"heatbath", "flow", "gaugefix", "distill", "copy", "dslash", "matpc", "solver"};
  if (std::find(kernels.begin(), kernels.end(), opt.kernel) == kernels.end())
    fail("lqcd bench: unknown benchmark \"{}\" (expected heatbath, flow, gaugefix, distill, copy, dslash, matpc or solver)",
         opt.kernel);
  if (opt.kernel == "dslash" || opt.kernel == "matpc" || opt.kernel == "solver") {
    if (opt.precision != "double" && opt.precision != "single" && opt.precision != "half")
      fail("--precision: expected double, single or half (got \"{}\")", opt.precision);
    if (opt.reconstruct != 18 && opt.reconstruct != 12 && opt.reconstruct != 8)
      fail("--reconstruct: expected 18 (full links), 12 (two rows) or 8 (minimal parametrisation), got {}",
           opt.reconstruct);
    if (opt.action == "clover" && (opt.reconstruct != 18 || opt.precision == "half"))
      fail("--action clover: implemented with 18-real links in double and single precision (got --reconstruct {}, "
           "--precision {})",
           opt.reconstruct, opt.precision);
    if (opt.precision == "half" && opt.reconstruct == 18)
      fail("--precision half: links are stored with 12 or 8 reals (--reconstruct 12 or 8)");
    if (opt.rhs < 1 || opt.rhs > 64) fail("--rhs: expected 1 to 64 right-hand sides (got {})", opt.rhs);
    if (opt.kernel == "solver") {
      if (opt.system != "normal" && opt.system != "matpc")
        fail("lqcd bench solver: --system must be normal or matpc (got \"{}\")", opt.system);
      const SolverType type = solver_type_from_name(opt.solver, "--solver");
      if (type == SolverType::Multigrid && opt.precision == "half")
        fail("--precision half: the multigrid cycle runs in double or single precision");
      if (type != SolverType::CG && type != SolverType::Multigrid && opt.system == "normal")
        fail("lqcd bench solver: --solver {} solves M_hat x = b: give --system matpc (--system normal is CG's)",
             opt.solver);
    }
    const bool multigrid = opt.kernel == "solver" && opt.solver == "multigrid";
    if (opt.rhs > 1 && opt.kernel == "solver" && !multigrid) {
      if (opt.rhs > kMaxBlockRhs)
        fail("--rhs {}: the multi-RHS solver takes 2 to {} right-hand sides", opt.rhs, kMaxBlockRhs);
      if (opt.action == "clover" || opt.reconstruct != 12 || opt.system != "normal")
        fail("--rhs {}: the multi-RHS solver is built for --action wilson or twisted_mass, --reconstruct 12 and "
             "--system normal (got --action {} --reconstruct {} --system {})",
             opt.rhs, opt.action, opt.reconstruct, opt.system);
    }
    if (opt.rhs > 1 && multigrid && comm::size() > 1)
      fail("--rhs {}: the multigrid on several right-hand sides runs on one process (this run has {})", opt.rhs,
           comm::size());
    if (opt.rhs > 1 && !multigrid) {
      if (opt.kernel != "dslash" && opt.kernel != "solver")
        fail("--rhs {}: several right-hand sides per call are implemented for lqcd bench dslash and solver (not {})",
             opt.rhs, opt.kernel);
      if (opt.action == "clover")
        fail("--rhs {}: the multi-right-hand-side dslash is implemented for --action wilson and twisted_mass "
             "(got clover)",
             opt.rhs);
      if (!multi_rhs_storage_available(opt))
        fail("--rhs {}: the multi-right-hand-side dslash is built for --reconstruct 12 (double, single, half) and "
             "--reconstruct 18 --precision single (got --reconstruct {} --precision {})",
             opt.rhs, opt.reconstruct, opt.precision);
      if (comm::size() > 1)
        fail("--rhs {}: multi-RHS dslash: not yet on a decomposed lattice (this run has {} processes)", opt.rhs,
             comm::size());
    }
    fermion_action_from_name(opt.action, "--action");
    check_real_option(opt.kappa, "--kappa", true);
    check_real_option(opt.mu, "--mu", false);
    check_real_option(opt.csw, "--csw", false);
    check_real_option(opt.tolerance, "--tolerance", true);
    if (opt.tolerance >= 1) fail("--tolerance: expected a number in (0, 1), got {}", opt.tolerance);
    // The lattice and process-grid errors before any measurement; at least the links and two spinors.
    const Geometry g = dirac_geometry(opt);
    check_lattice_fits(g, kGaugeBytesPerSite + 2 * kSpinorBytesPerSite, choose_location(opt.device), "--dims",
                       "the links and two spinor fields");
    if (opt.kernel == "solver" && opt.solver == "multigrid") {
      const MultigridParams mp = bench_multigrid_params(opt);
      check_lattice_fits(g,
                         kGaugeBytesPerSite + 2 * kSpinorBytesPerSite +
                             multigrid_bytes_per_site(mp, opt.precision == "single" ? 4 : 8, g.processes(), opt.rhs),
                         choose_location(opt.device), "--dims",
                         "the links, two spinor fields and the multigrid: " + multigrid_memory_summary(mp),
                         "use --multigrid outer_restart=8 (fits 48^4 on 80 GB) or fewer test_vectors, or more "
                         "processes (--grid)");
    }
  }
  if (opt.kernel == "heatbath") {  // its lattice and action errors before any measurement
    const Geometry geom = ProcessGrid::single().decompose(parse_dims_option(opt.dims, "--dims"), "--dims");
    check_lattice_fits(geom, kGaugeBytesPerSite, choose_location(opt.device), "--dims", "the gauge field");
    const GaugeAction action = GaugeAction::from_name(opt.action, 6.0, "--action");
    for (int mu = 0; mu < 4; ++mu)  // the checkerboard of the rectangle heatbath (gauge/updates.hpp)
      if (action.has_rectangles() && geom.global[mu] % 4)
        fail("--dims: the {} action's heatbath needs every extent to be a multiple of 4 (got {})", action.name(),
             dims_string(geom.global));
    check_update_geometry(geom, action);
  }
  if (opt.repetitions < 1) fail("--repetitions: expected a positive integer (got {})", opt.repetitions);
  if (opt.timing != "events" && opt.timing != "wall" && opt.timing != "batched")
    fail("--timing: expected events, batched or wall (got {})", opt.timing);
  device_timing = opt.timing == "events"    ? DeviceTiming::Events
                  : opt.timing == "batched" ? DeviceTiming::Batched
                                            : DeviceTiming::Wall;
  if (opt.rotation_sets < 0 || opt.rotation_sets > 64)
    fail("--rotation-sets: expected 0 (automatic) to 64 (got {})", opt.rotation_sets);
  if (!opt.config.empty()) {
    if (opt.kernel != "dslash" && opt.kernel != "matpc" && opt.kernel != "solver" && opt.kernel != "gaugefix")
      fail("--config: a gauge configuration is used by lqcd bench dslash, matpc, solver and gaugefix (not {})",
           opt.kernel);
    io::detect_gauge_format(opt.config);  // a missing or unreadable file is an error before any measurement
  }
  if (comm::size() > 1 &&
      (opt.kernel == "heatbath" || opt.kernel == "flow" || opt.kernel == "gaugefix" || opt.kernel == "distill" ||
       opt.kernel == "copy"))
    fail("lqcd bench {}: runs on one process (this run has {}); dslash, matpc and solver run on several", opt.kernel,
         comm::size());
  const bool root = comm::rank() == 0;  // prints for all
  const Location loc = choose_location(opt.device);
  const std::string device = loc == Location::Device ? device_description() : "CPU (OpenMP)";
  EnergyMeter meter(loc);  // this process's GPU (NVML, loaded at run time), or why not

  // The reference first: copy bandwidth of a buffer far larger than the caches.
  const std::size_t copy_bytes = loc == Location::Device ? (std::size_t(1) << 30) : (std::size_t(1) << 28);
  const CopyBandwidth copy = measure_copy_bandwidth(loc, copy_bytes, std::max(opt.repetitions, 10));
  nlohmann::json result = {{"program", version_string()},
                           {"device", device},
                           {"copy_bandwidth_GBps", copy.gb_per_s},
                           {"copy_bytes", copy.bytes},
                           {"timing", timing_description(loc)},
                           {"energy_note", meter.available()
                                               ? nlohmann::json(nullptr)
                                               : nlohmann::json("not measured (" + meter.unavailable_reason() + ")")}};
  if (!opt.json && root) {
    std::cout << fmt::format("# {}\n# device: {}\n# copy bandwidth: {:.1f} GB/s (read + write, {} MiB buffers, median of {})\n"
                             "# timing: {}\n",
                             version_string(), device, copy.gb_per_s, copy.bytes >> 20, copy.repetitions,
                             timing_description(loc));
    std::cout << (meter.available()
                      ? fmt::format("# energy: NVML counter of the GPU at {} over each timed loop (at least 1 s)\n",
                                    meter.pci_bus_id())
                      : fmt::format("# energy: not measured ({})\n", meter.unavailable_reason()));
  }

  if (opt.kernel == "heatbath") {
    const Dims dims = parse_dims_option(opt.dims, "--dims");
    const Geometry geom = ProcessGrid::single().decompose(dims, "--dims");
    const GaugeAction action = GaugeAction::from_name(opt.action, 6.0, "--action");
    check_update_geometry(geom, action);
    GaugeField<double> U(geom, loc);
    set_hot_gauge(U, 1);
    std::uint32_t sweep = 0;
    RegionEnergy e_hb{meter, geom.grid}, e_or{meter, geom.grid};
    const double t_hb = median_seconds(loc, opt.repetitions, [&] { heatbath_sweep(U, action, 1, sweep++); }, &e_hb);
    const double t_or = median_seconds(loc, opt.repetitions, [&] { overrelaxation_sweep(U, action); }, &e_or);
    // Bytes per sweep (double precision, 18 reals = 144 bytes per link), Wilson action:
    //   naive   = every link update loads its 18 staple links and loads + stores the link: 20 x 144 B x 4V;
    //   minimal = per direction-and-parity subset, all 8 link blocks of V/2 read once and 1 written:
    //             9 x V/2 x 144 B x 8 subsets = 36 V x 144 B.
    // Rectangle actions load 18 x 5 more links per update (naive); their minimal traffic per subset is
    // the same field read, repeated for 4 colours.
    const double v = double(geom.volume()), link_bytes = 144;
    const double naive = (action.has_rectangles() ? 110.0 : 20.0) * 4 * v * link_bytes;
    const double minimal = (action.has_rectangles() ? 4.0 : 1.0) * 36 * v * link_bytes;
    const double combined = t_hb + 4 * t_or;
    result.update({{"benchmark", "heatbath"},
                   {"dims", dims},
                   {"action", action.name()},
                   {"precision", "double"},
                   {"repetitions", opt.repetitions},
                   {"heatbath_sweep_s", t_hb},
                   {"overrelaxation_sweep_s", t_or},
                   {"sweeps_per_s_hb_plus_4or", 1.0 / combined},
                   {"link_updates_per_s_hb", 4 * v / t_hb},
                   {"bytes_per_sweep_naive", naive},
                   {"bytes_per_sweep_minimal", minimal},
                   {"heatbath_GBps_naive", naive / t_hb / 1e9},
                   {"heatbath_GBps_minimal", minimal / t_hb / 1e9},
                   {"overrelaxation_GBps_minimal", minimal / t_or / 1e9},
                   {"heatbath_fraction_of_copy", minimal / t_hb / 1e9 / copy.gb_per_s},
                   {"overrelaxation_fraction_of_copy", minimal / t_or / 1e9 / copy.gb_per_s}});
    result.update(energy_fields("heatbath_", e_hb, std::nullopt));  // per sweep; no FLOP count
    result.update(energy_fields("overrelaxation_", e_or, std::nullopt));
    if (!opt.json)
      std::cout << fmt::format(
          "# heatbath benchmark: {} lattice, {} action, double precision, median of {}\n"
          "  heatbath sweep        {:9.3f} ms   {:8.1f} GB/s minimal ({:.1f} naive)   {:5.1f}% of copy\n"
          "  overrelaxation sweep  {:9.3f} ms   {:8.1f} GB/s minimal                  {:5.1f}% of copy\n"
          "  heatbath + 4 OR       {:9.3f} sweeps/s   ({:.3g} link updates/s in the heatbath)\n",
          dims_string(dims), action.name(), opt.repetitions, t_hb * 1e3, minimal / t_hb / 1e9, naive / t_hb / 1e9,
          100 * minimal / t_hb / 1e9 / copy.gb_per_s, t_or * 1e3, minimal / t_or / 1e9,
          100 * minimal / t_or / 1e9 / copy.gb_per_s, 1.0 / combined, 4 * v / t_hb);
    if (!opt.json && e_hb.reading.available && e_or.reading.available)
      std::cout << fmt::format("  energy per sweep      {:9.4f} J heatbath ({:.1f} W), {:.4f} J overrelaxation "
                               "({:.1f} W)\n",
                               e_hb.reading.joules / double(e_hb.calls), e_hb.reading.watts(),
                               e_or.reading.joules / double(e_or.calls), e_or.reading.watts());
  }
  if (opt.kernel == "flow") {
    const Dims dims = parse_dims_option(opt.dims, "--dims");
    const Geometry geom = ProcessGrid::single().decompose(dims, "--dims");
    GaugeField<double> U(geom, loc);
    set_hot_gauge(U, 1);
    heatbath_sweep(U, GaugeAction::from_name("wilson", 6.0), 1, 0);  // a rough, realistic field
    GradientFlow flow(U);
    RegionEnergy e_step{meter, geom.grid};
    const double eps = 0.01;
    const double t_step = median_seconds(loc, opt.repetitions, [&] { flow.step(U, eps); }, &e_step);
    const double t_measure = median_seconds(loc, opt.repetitions, [&] { (void)flow_measurement(U, 0); });
    // Minimal bytes per RK3 step (double, 144 B per link, 4 links = 576 B per site and field): each of
    // the three stages reads V and X and writes X (the first does not read X), then reads X and V and
    // writes V: 17 field passes. The measurement reads V once.
    const double v = double(geom.volume()), field = 576 * v, step_bytes = 17 * field, measure_bytes = field;
    result.update({{"benchmark", "flow"},
                   {"dims", dims},
                   {"flow", "wilson"},
                   {"integrator", "rk3"},
                   {"precision", "double"},
                   {"repetitions", opt.repetitions},
                   {"step_s", t_step},
                   {"measurement_s", t_measure},
                   {"bytes_per_step_minimal", step_bytes},
                   {"step_GBps_minimal", step_bytes / t_step / 1e9},
                   {"step_fraction_of_copy", step_bytes / t_step / 1e9 / copy.gb_per_s},
                   {"measurement_fraction_of_copy", measure_bytes / t_measure / 1e9 / copy.gb_per_s},
                   {"flow_to_t3_s", 300 * (t_step + t_measure)}});
    result.update(energy_fields("step_", e_step, std::nullopt));
    if (!opt.json)
      std::cout << fmt::format(
          "# flow benchmark: {} lattice, Wilson flow, RK3, double precision, median of {}\n"
          "  RK3 step              {:9.3f} ms   {:8.1f} GB/s minimal   {:5.1f}% of copy\n"
          "  E and Q measurement   {:9.3f} ms   {:5.1f}% of copy\n"
          "  flow to t = 3 (eps 0.01, measured every step): {:.2f} s\n",
          dims_string(dims), opt.repetitions, t_step * 1e3, step_bytes / t_step / 1e9,
          100 * step_bytes / t_step / 1e9 / copy.gb_per_s, t_measure * 1e3,
          100 * measure_bytes / t_measure / 1e9 / copy.gb_per_s, 300 * (t_step + t_measure));
  }
  if (opt.kernel == "gaugefix") {
    // Without --config: a rough field (hot start + one heatbath sweep) of --dims for the time per
    // iteration; with --config (of --dims), also the whole Landau and Coulomb fixes of it to 1e-14.
    const Dims dims = parse_dims_option(opt.dims, "--dims");
    const Geometry geom = ProcessGrid::single().decompose(dims, "--dims");
    GaugeField<double> start(geom, loc);
    if (opt.config.empty()) {
      set_hot_gauge(start, 1);
      heatbath_sweep(start, GaugeAction::from_name("wilson", 6.0), 1, 0);
    } else {
      start.copy_from(load_configuration(opt.config, load_policy_for(start)).field);
    }
    GaugeField<double> U = start.clone(loc);
    // One iteration: F and theta (with Delta), and the step. Timed as 10 iterations per call.
    const auto per_iteration = [&](GaugeCondition gauge, GaugeFixMethod method) {
      GaugeFixParams p;
      p.gauge = gauge;
      p.method = method;
      p.precision = 1e-300;
      p.max_iterations = 10;
      return median_seconds(loc, opt.repetitions, [&] { (void)fix_gauge(U, p); }) / 10;
    };
    const double t_landau = per_iteration(GaugeCondition::Landau, GaugeFixMethod::Fourier);
    const double t_coulomb = per_iteration(GaugeCondition::Coulomb, GaugeFixMethod::Fourier);
    const double t_or = per_iteration(GaugeCondition::Landau, GaugeFixMethod::Overrelaxation);
    // Minimal bytes per site and iteration (double; a link 144 B, the packed Delta 64 B):
    //   Fourier: measurement reads 4 links and writes Delta (576 + 64), each FFT reads and writes Delta
    //   once (2 x 128), the filter too (128), the rotation reads Delta and 4 links and writes 4 links
    //   (64 + 2 x 576): 2240 B.
    //   Overrelaxation: per parity the maximisation reads the 8 links of half the sites (V/2 x 1152) and
    //   writes g (V/2 x 144), the application reads g and reads + writes the 4 links of every site:
    //   2 x (576 + 72 + 144 + 1152) = 3888 B; plus the measurement (576): 4464 B.
    const double v = double(geom.volume()), fourier_bytes = 2240 * v, or_bytes = 4464 * v;
    result.update({{"benchmark", "gaugefix"},
                   {"dims", dims},
                   {"links", opt.config.empty() ? std::string("hot start + 1 heatbath sweep at beta 6.0") : opt.config},
                   {"precision", "double"},
                   {"repetitions", opt.repetitions},
                   {"landau_fft_iteration_s", t_landau},
                   {"coulomb_fft_iteration_s", t_coulomb},
                   {"landau_overrelaxation_iteration_s", t_or},
                   {"fft_bytes_per_iteration_minimal", fourier_bytes},
                   {"overrelaxation_bytes_per_iteration_minimal", or_bytes},
                   {"landau_fft_fraction_of_copy", fourier_bytes / t_landau / 1e9 / copy.gb_per_s},
                   {"coulomb_fft_fraction_of_copy", fourier_bytes / t_coulomb / 1e9 / copy.gb_per_s},
                   {"overrelaxation_fraction_of_copy", or_bytes / t_or / 1e9 / copy.gb_per_s}});
    if (!opt.json)
      std::cout << fmt::format(
          "# gaugefix benchmark: {} lattice ({}), double precision, median of {} (10 iterations each)\n"
          "  Landau, FFT steepest descent    {:9.3f} ms per iteration   {:5.1f}% of copy\n"
          "  Coulomb, FFT steepest descent   {:9.3f} ms per iteration   {:5.1f}% of copy\n"
          "  Landau, overrelaxation          {:9.3f} ms per iteration   {:5.1f}% of copy\n",
          dims_string(dims), result["links"].get<std::string>(), opt.repetitions, t_landau * 1e3,
          100 * fourier_bytes / t_landau / 1e9 / copy.gb_per_s, t_coulomb * 1e3,
          100 * fourier_bytes / t_coulomb / 1e9 / copy.gb_per_s, t_or * 1e3,
          100 * or_bytes / t_or / 1e9 / copy.gb_per_s);
    if (!opt.config.empty()) {
      for (GaugeCondition gauge : {GaugeCondition::Landau, GaugeCondition::Coulomb}) {
        U.copy_from(start);
        GaugeFixParams p;
        p.gauge = gauge;
        p.precision = 1e-14;
        const Stopwatch watch;
        const GaugeFixResult r = fix_gauge(U, p);
        const double seconds = watch.seconds();
        const std::string key = to_string(gauge) + "_fft_to_1e-14_";
        result.update({{key + "s", seconds}, {key + "iterations", r.iterations}, {key + "converged", r.converged},
                       {key + "theta", r.final.theta}});
        if (!opt.json)
          std::cout << fmt::format("  {} gauge to theta < 1e-14 (FFT): {:.2f} s, {} iterations{} (theta {:.2e})\n",
                                   to_string(gauge), seconds, r.iterations, r.converged ? "" : ", NOT converged",
                                   r.final.theta);
      }
    }
  }
  if (opt.kernel == "distill") result.update(distill_bench(opt, loc));
  if (opt.kernel == "dslash" || opt.kernel == "matpc" || opt.kernel == "solver") {
    const Dims dims = parse_dims_option(opt.dims, "--dims");
    const Geometry geom = dirac_geometry(opt);
    const Dims& grid = geom.grid;
    result["benchmark"] = opt.kernel;
    result["dims"] = dims;
    result["grid"] = grid;
    result["local_dims"] = geom.local;
    result["links"] = opt.config.empty() ? std::string("Haar-random (seed 1)") : opt.config;
    result["repetitions"] = opt.repetitions;
    if (opt.kernel == "solver") result.update(solver_bench(opt, geom, loc, copy.gb_per_s, meter));
    else result.update(dirac_bench_as_asked(opt, geom, loc, copy.gb_per_s, meter));
    if (loc == Location::Device) result.update(launch_tuning_fields());
    if (!opt.json && root) {
      std::cout << fmt::format("# {} benchmark: {} lattice over process grid {}, {} action, {} precision, median of {}\n",
                               opt.kernel, dims_string(dims), dims_string(grid), opt.action, opt.precision,
                               opt.repetitions);
      for (const auto& [key, value] : result.items())
        if (key != "program" && key != "device" && key != "energy_note")  // in the header
          std::cout << fmt::format("  {:<24} {}\n", key, value.dump());
    }
  }
  if (opt.json && root) std::cout << result.dump() << std::endl;
  return 0;
}

}  // namespace lqcd::app
