#include "app/bench/dirac_bench.hpp"
#include "app/bench/timing.hpp"
#include "app/bench_command.hpp"

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

#include "comm/communicator.hpp"
#include "comm/device_messages.hpp"
#include "comm/process_grid.hpp"
#include "core/copy_stream.hpp"
#include "core/device_timeline.hpp"
#include "core/energy_meter.hpp"
#include "core/error.hpp"
#include "core/launch_tuning.hpp"
#include "core/timer.hpp"
#include "measure/distillation_contractions.hpp"
#include "measure/laplacian_eigenvectors.hpp"
#include "gauge/gradient_flow.hpp"
#include "measure/configuration.hpp"
#include "gauge/updates.hpp"
#include "core/site_random.hpp"
#include "dirac/clover_even_odd.hpp"
#include "dirac/visiting_order.hpp"
#include "dirac/wilson_even_odd.hpp"
#include "dirac/wilson_hopping_term.hpp"
#include "dirac/wilson_even_odd_multi_rhs.hpp"
#include "dirac/wilson_multi_rhs.hpp"
#include "fields/spinor_block_blas.hpp"
#include "solvers/multigrid/multigrid.hpp"
#include "core/dispatch.hpp"
#include "fields/spinor_blas.hpp"
#include "fields/spinor_block_field.hpp"
#include "solvers/solver.hpp"

namespace lqcd::app::bench {

namespace {

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
template <typename Real, int LC>
nlohmann::json time_hopping_term(WilsonHoppingTerm<Real, LC>& h, const Geometry& g, Location loc, int repetitions,
                                 double& seconds, RegionEnergy* energy = nullptr) {
  seconds = median_seconds(loc, repetitions, [&] { h.apply(); }, energy);
  if (!g.has_halo()) return nlohmann::json::object();
  h.receive_faces();
  const double bytes = h.face_bytes_sent();
  const double t_exchange = median_seconds(loc, repetitions, [&] { h.exchange(); });
  const double t_compute = median_seconds(loc, repetitions, [&] { h.compute_on_received_faces(); });
  const double t_serial = median_seconds(loc, repetitions, [&] { h.serial(); });
  const double t_interior = median_seconds(loc, repetitions, [&] { h.interior(); });
  // The interior alone left `out` without the face hops: the whole call again, so that the caller
  // compares the result (difference_to_double_18_real) and not the timing's by-product.
  h.apply();
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
    const ModelParts m = message_model_parts(g, 1, WilsonHoppingTerm<Real, LC>::kMessageBytesPerFaceSite, loc,
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

}  // namespace

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

namespace {

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
                 minimal = double(WilsonHoppingTerm<Real, LC>::kTrafficBytesPerSite) + site_bytes;
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
      WilsonHoppingTerm<Real, LC> h(*Uc, in_odd, out_even, twisted ? &in_even : nullptr, prm.boundary, alpha, 1.0, c5);
      r["t_tile"] = h.t_tile();
      sets = geom.has_halo() ? 1 : opt.rotation_sets > 0 ? opt.rotation_sets : l2_rotation_sets(loc, minimal * vh);
      if (sets > 1) {
        // Copies of the links and fields, one call on each in turn: each call reads from DRAM, as on
        // a lattice larger than L2, instead of finding the previous call's data in L2. (The copies'
        // device pointers stay where they are when the vectors grow: reserve.)
        std::vector<GaugeField<Real, LC>> links;
        std::vector<SpinorField<Real>> ins, xs, outs;
        links.reserve(std::size_t(sets));
        ins.reserve(std::size_t(sets));
        xs.reserve(std::size_t(sets));
        outs.reserve(std::size_t(sets));
        std::vector<WilsonHoppingTerm<Real, LC>> terms{h};
        for (int c = 1; c < sets; ++c)
          terms.push_back(h.with_fields(links.emplace_back(convert_links<Real, LC>(U)), ins.emplace_back(in_odd.clone(loc)),
                                        outs.emplace_back(out_even.like()),
                                        twisted ? &xs.emplace_back(in_even.clone(loc)) : nullptr));
        int call = 0;
        t = median_seconds(loc, opt.repetitions, [&] { terms[std::size_t(call++ % sets)].apply(); }, &energy);
      } else {
        parts = time_hopping_term(h, geom, loc, opt.repetitions, t, &energy);
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

}  // namespace

// The storages the multi-RHS dslash is built for (wilson_multi_rhs.cpp).
bool multi_rhs_storage_available(const BenchCommandOptions& opt) {
  return opt.reconstruct == 12 || (opt.reconstruct == 18 && opt.precision == "single");
}

namespace {

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

}  // namespace

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

}  // namespace lqcd::app::bench
