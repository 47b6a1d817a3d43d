#include "app/bench/distill_bench.hpp"
#include "app/bench/timing.hpp"
#include "app/bench_command.hpp"

#include "app/input_values.hpp"

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
#include "comm/process_grid.hpp"
#include "core/dense_linear_algebra.hpp"
#include "core/copy_stream.hpp"
#include "core/device_timeline.hpp"
#include "core/energy_meter.hpp"
#include "core/error.hpp"
#include "core/launch_tuning.hpp"
#include "core/timer.hpp"
#include "gauge/stout_smearing.hpp"
#include "measure/distillation_contractions.hpp"
#include "measure/laplacian_eigenvectors.hpp"
#include "gauge/gradient_flow.hpp"
#include "measure/configuration.hpp"
#include "gauge/updates.hpp"
#include "core/site_random.hpp"
#include "dirac/clover_even_odd.hpp"
#include "dirac/wilson_even_odd.hpp"
#include "dirac/wilson_even_odd_multi_rhs.hpp"
#include "solvers/multigrid/multigrid.hpp"
#include "core/dispatch.hpp"
#include "fields/spinor_block_field.hpp"

namespace lqcd::app::bench {

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

}  // namespace lqcd::app::bench
