#include "measure/perambulator.hpp"

#include <algorithm>
#include <chrono>

#include "core/dense_linear_algebra.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "measure/distillation_kernels.hpp"

namespace lqcd {

Perambulator perambulator(const DiracOperators& ops, bool even_odd, const LaplacianEigenvectors& E, int t0,
                          const PropagatorOptions& options,
                          const std::function<void(const PropagatorSolve&)>& on_solve) {
  const LinearOperator<double>& M = *ops.full;
  const Geometry& geom = M.geometry();
  if (geom.global != E.dims || geom.offset[3] != E.t_begin || geom.local[3] != E.local_nt)
    fail("perambulator: the eigenvectors' lattice (or this process's slices of it) differs from the Dirac operator's");
  check_whole_time_slices(geom, "perambulator");
  if (M.location() != E.location()) fail("internal: perambulator: eigenvectors and operator in different places");
  if (t0 < 0 || t0 >= E.dims[3]) fail("perambulator: source time {} outside 0..{}", t0, E.dims[3] - 1);
  if (options.sink_smearing.iterations > 0) fail("perambulator: sink smearing must be off (distillation smears)");
  const auto start = std::chrono::steady_clock::now();
  const Location loc = E.location();
  const SliceIndexer slice{{E.dims[0], E.dims[1], E.dims[2]}};
  const std::int64_t n = E.rows();
  const int nv = E.nv, nt = E.local_nt;
  constexpr int kBlock = 12;
  Perambulator tau;
  tau.t0 = t0;
  tau.nv = nv;
  tau.nt = E.dims[3];
  tau.t_begin = E.t_begin;
  tau.local_nt = nt;
  tau.grid = geom.grid;
  tau.data = Buffer<Complex<double>>(std::size_t(nt) * 16 * tau.block(), loc);
  // The source slice is on the process that holds t0; the others solve with it (collectively) and
  // project the solution onto their own slices.
  const int t0_here = E.holds(t0) ? t0 - E.t_begin : -1;
  // One solution's (local) time slices at a time ([t][spin][n], 4 T n numbers): its projection onto every
  // slice's eigenvectors is one GEMM batched over t, V(t)^dag (n x 4) -> the column (beta, b) of all four
  // tau(t)[alpha][beta] blocks (ldc 4 nv^2 steps from alpha to alpha + 1).
  Buffer<Complex<double>> gathered(std::size_t(nt) * 4 * n, loc);
  PropagatorOptions o = options;  // one multigrid setup (if any) for all 4 nv solves
  if (!o.multigrid_cache) o.multigrid_cache = std::make_shared<MultigridCache>();
  for (int beta = 0; beta < 4; ++beta)
    for (int b0 = 0; b0 < nv; b0 += kBlock) {
      const int count = std::min(kBlock, nv - b0);
      solve_sources(
          ops, even_odd, count,
          [&](int j) {
            SpinorField<double> eta = M.make_field();
            for_each(loc, eta.sites(), SliceSourceKernel{eta.view(), slice, t0_here, beta,
                                                               t0_here >= 0 ? E.slice(t0_here) + (b0 + j) * n : nullptr});
            return eta;
          },
          o,
          [&](int j, SpinorField<double>& psi) {
            for_each(loc, psi.sites(), SliceGatherKernel{psi.view(), slice, 1, 0, gathered.data()});
            GemmBatch g;
            g.op_a = MatrixOp::Adjoint;
            g.m = nv;
            g.n = 4;
            g.k = int(n);
            g.lda = g.ldb = int(n);
            g.ldc = int(4 * tau.block());
            g.stride_a = std::int64_t(nv) * n;
            g.stride_b = 4 * n;
            g.stride_c = 16 * tau.block();
            g.batch = nt;
            gemm_batched(loc, g, Complex<double>(1.0), E.vectors.data(), gathered.data(), Complex<double>(0.0),
                         tau.data.data() + beta * tau.block() + std::int64_t(b0 + j) * nv);
          },
          [&](const PropagatorSolve& s) {
            ++tau.solves;
            tau.iterations += s.result.iterations;
            if (on_solve) on_solve(s);
          });
    }
  if (loc == Location::Device) detail::device_synchronize();
  tau.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return tau;
}

}  // namespace lqcd
