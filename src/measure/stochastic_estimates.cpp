#include "measure/stochastic_estimates.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "measure/momentum_projection.hpp"

namespace lqcd {

namespace {

// Solves for every diluted piece of the noise vector, at most 12 at a time (solve_sources), handing
// each eta_k and psi_k (this process's box, lexicographic) to `use`.
template <typename Use>
void solve_pieces(const DiracOperators& ops, bool even_odd, const NoiseSpec& noise, const PropagatorOptions& options,
                  const Use& use) {
  const LinearOperator<double>& M = *ops.full;
  const Geometry& geom = M.geometry();
  const int pieces = dilution_pieces(noise, geom.global);
  for (int first = 0; first < pieces; first += 12) {
    const int count = std::min(12, pieces - first);
    std::vector<LexicographicSpinor> eta(static_cast<std::size_t>(count));  // drawn once, used for the solve and the estimate
    solve_sources(
        ops, even_odd, count,
        [&](int j) {
          eta[std::size_t(j)] = diluted_noise_box(noise, first + j, geom);
          return local_to_spinor_field(eta[std::size_t(j)], geom, M.location());
        },
        options, [&](int j, SpinorField<double>& psi) { use(eta[std::size_t(j)], to_local_lexicographic(psi)); });
  }
}

}  // namespace

LoopEstimate disconnected_loops(const DiracOperators& ops, bool even_odd, const NoiseSpec& noise,
                                const std::vector<SpinMatrix>& gammas, const std::vector<std::array<int, 3>>& momenta,
                                const PropagatorOptions& options, const HoppingExpansion* expansion) {
  const Geometry& geom = ops.full->geometry();
  // A(x)_{beta alpha} = sum_k sum_c psi_k(x)_{beta c} eta_k(x)_{alpha c}^*, so that the estimate of
  // tr[G M^-1(x, x)] is tr[G A(x)].
  // With the expansion, A starts from its exact part and psi_k becomes the remainder's (kappa A^-1 H)^n psi_k.
  const bool expand = expansion && expansion->order > 0;
  std::vector<SpinMatrix> A = expand ? expansion->exact_diagonal : std::vector<SpinMatrix>(std::size_t(geom.volume()));
  solve_pieces(ops, even_odd, noise, options, [&](const LexicographicSpinor& eta, const LexicographicSpinor& solution) {
    const LexicographicSpinor psi = expand ? hopping_expansion_remainder(*expansion, *ops.full, solution) : solution;
    for (std::size_t x = 0; x < A.size(); ++x)
      for (int b = 0; b < 4; ++b)
        for (int a = 0; a < 4; ++a)
          for (int c = 0; c < 3; ++c) A[x].m[b][a] += psi[x].s[b].c[c] * conj(eta[x].s[a].c[c]);
  });
  LoopEstimate out;
  for (const SpinMatrix& g : gammas)
    out.push_back(project_to_momenta(geom, {0, 0, 0, 0}, momenta, [&](std::int64_t i, const int*) {
      Complex<double> tr{};
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) tr += g.m[a][b] * A[std::size_t(i)].m[b][a];
      return tr;
    }));
  return out;
}

std::vector<double> one_end_pion(const DiracOperators& ops, bool even_odd, const NoiseSpec& noise,
                                 const PropagatorOptions& options) {
  const Geometry& geom = ops.full->geometry();
  if (noise.time_slice < 0) throw Error("one_end_pion: the noise must live on one time slice (time_slice >= 0)");
  std::vector<double> norm(std::size_t(geom.volume()));
  solve_pieces(ops, even_odd, noise, options, [&](const LexicographicSpinor&, const LexicographicSpinor& psi) {
    for (std::size_t x = 0; x < norm.size(); ++x)
      for (const auto& s : psi[x].s)
        for (const auto& z : s.c) norm[x] += z.re * z.re + z.im * z.im;
  });
  const auto c = project_to_momenta(geom, {0, 0, 0, noise.time_slice}, {{0, 0, 0}},
                                    [&](std::int64_t i, const int*) { return Complex<double>(norm[std::size_t(i)]); });
  const double spatial = double(geom.global[0]) * geom.global[1] * geom.global[2];
  std::vector<double> out(c[0].size());
  for (std::size_t t = 0; t < out.size(); ++t) out[t] = c[0][t].re / spatial;
  return out;
}

}  // namespace lqcd
