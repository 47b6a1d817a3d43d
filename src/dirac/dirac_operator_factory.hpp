#pragma once
// The Dirac operators of a fermion action, for the application layer: the full-lattice operator
// and its even-odd (Schur) preconditioned form, from the action's name and parameters.
//   wilson        M = 1 - kappa H                                   (WilsonOperator, WilsonEvenOddOperator)
//   twisted_mass  M = 1 + 2 i kappa mu gamma_5 - kappa H            (the same classes with mu)
//   clover        M = A - kappa H, A with c_sw and, if mu != 0, the twisted mass (twisted clover)
//                                                                   (WilsonCloverOperator, WilsonCloverEvenOddOperator)
// twisted_mass with csw != 0 is twisted clover, i.e. the clover operators.

#include <array>
#include <memory>
#include <optional>
#include <string>

#include "dirac/block_operator.hpp"
#include "dirac/linear_operator.hpp"
#include "dirac/wilson_operator.hpp"

namespace lqcd {

enum class FermionAction { Wilson, Clover, TwistedMass };

// "wilson", "clover", "twisted_mass"; anything else throws lqcd::Error naming `key` and the allowed values.
FermionAction fermion_action_from_name(const std::string& name, const std::string& key = "action");
// The inverse of fermion_action_from_name.
const char* fermion_action_name(FermionAction action);

struct FermionParams {
  FermionAction action = FermionAction::Wilson;
  WilsonParams wilson;  // kappa, mu (twisted mass, mass form), boundary phases
  double csw = 0;
  // The clover term's field strength with its trace kept, (1/8)(Q - Q^dag) as MILC's clover_invert2 and
  // openQCD's tcharge/ftensor.c define it, instead of its traceless part (QUDA, Chroma): clover actions only
  // (dirac/clover_kernels.hpp, clover_hermitian_blocks).
  bool clover_trace_kept = false;
  // openQCD's open boundary conditions in time for the quarks (dirac/quark_time_boundary.hpp; the time
  // entry of wilson.boundary is then unused) and their boundary coefficient c_F; c_F != 1 needs the clover
  // action (csw = 0 for Wilson quarks), whose site term carries it.
  bool open_time = false;
  double c_F = 1.0;
};

// Throws lqcd::Error naming the parameter at fault (kappa, mu, csw: the fields' names; the input readers
// in app/ check their keys when they read them, and name those) when a value is not finite, kappa <= 0,
// csw != 0 with the wilson action, or mu != 0 with the wilson action (a contradiction, not silently
// something else). clover with csw = 0 and twisted_mass with mu = 0 are
// the Wilson operator, run as asked.
void check_fermion_params(const FermionParams& p);

// The free field (unit gauge links) is the one case where the operator's invertibility is known in
// closed form. It is diagonal in momentum space, with p_mu = (2 pi n + theta_mu) / L_mu for boundary
// phase e^{i theta_mu}:
//   (D_W + m0 + i mu gamma_5)(p) = m0 + sum_mu (1 - cos p_mu) + i sum_mu gamma_mu sin p_mu + i mu gamma_5,
//   |D(p)|^2 = (m0 + sum_mu (1 - cos p_mu))^2 + sum_mu sin^2 p_mu + mu^2
// (gamma_5 anticommutes with every gamma_mu; the clover term vanishes, F = 0). A zero mode needs
// mu = 0 and sin p_mu = 0 in every direction, i.e. each p_mu in {0, pi}, and then m0 = -2 k with k the
// number of directions where p_mu = pi. p_mu = 0 is a momentum of the lattice iff the phase is 1,
// p_mu = pi iff the phase is (-1)^L_mu. Every other (kappa, mu, dims, boundary) gives an invertible
// operator, however unusual: kappa > 1/8 (m0 < 0) on a periodic lattice, m0 = 0 with antiperiodic
// time, any kappa with mu != 0 (|D(p)|^2 >= mu^2).
//
// The zero mode's momentum components (0 or 1, in units of pi), when the free-field operator of p on
// `dims` is singular; nullopt when it is invertible. m0 must be within 1e-12 of -2k: an operator
// that close to singular has a condition number beyond what double-precision solves resolve anyway.
std::optional<std::array<int, 4>> free_field_zero_mode(const WilsonParams& p, const Dims& dims);

// Throws lqcd::Error naming kappa when the free-field operator is singular (free_field_zero_mode),
// saying which momentum is the zero mode and what would make it invertible. The application calls this
// for the unit ("free") configuration only, and names its key.
void check_free_field_invertible(const WilsonParams& p, const Dims& dims);

struct DiracOperators {
  // With open boundaries in time: the links of the quarks' hops (quark_hopping_links; declared first so
  // that it outlives every operator on it); else null.
  std::unique_ptr<const GaugeField<double>> links_open;
  std::unique_ptr<LinearOperator<double>> full;     // subset Full
  std::unique_ptr<SchurOperator<double>> even_odd;  // subset Even
  // With single precision asked for: U rounded to single precision (owned here, declared before the
  // operators that use it so that it outlives them) and the same two operators on it; else null.
  std::unique_ptr<const GaugeField<float>> links_single;
  std::unique_ptr<LinearOperator<float>> full_single;
  std::unique_ptr<SchurOperator<float>> even_odd_single;
  // With half precision asked for (Wilson and twisted mass): U in 16-bit fixed point with 12 reals
  // per link, and the even-odd operator on it; else null.
  std::unique_ptr<const GaugeField<Half, 6>> links_half;
  std::unique_ptr<SchurOperator<Half>> even_odd_half;
  // With block_rhs > 0 (Wilson and twisted mass, one process): the even-odd operator on blocks of
  // block_rhs right-hand sides (the multi-RHS CG, dirac/wilson_even_odd_multi_rhs.hpp), on U itself,
  // and in the sloppy precision asked for, on 12-real links (Half: on links_half); else null.
  std::unique_ptr<const GaugeField<float, 6>> links_block_single;
  std::unique_ptr<BlockOperator<double>> even_odd_block;
  std::unique_ptr<BlockOperator<float>> even_odd_block_single;
  std::unique_ptr<BlockOperator<Half>> even_odd_block_half;
};

// The lower precisions a solver may ask the operators in (solve_mixed's inner solves).
enum class SloppyPrecision { None, Single, Half };

// Checks p (check_fermion_params) and builds both operators on U, which must outlive them. For the
// clover actions the two share one clover field: `full` forwards to the WilsonCloverOperator held by
// `even_odd` (a WilsonCloverEvenOddOperator; its full_operator() is that operator and its update()
// rebuilds the shared clover field after the links change). With sloppy = Single the float operators
// are built too, with Half the half-precision even-odd operator (for mixed-precision solves; the
// clover actions have no half-precision operator: an error naming solver.precision); they are copies
// made now and are made again, not updated, after the links change. block_rhs > 0 builds the block
// operators too (solver.multi_rhs: an error naming it for the clover actions and on a lattice split
// over processes).
DiracOperators make_dirac_operators(const GaugeField<double>& U, const FermionParams& p,
                                    SloppyPrecision sloppy = SloppyPrecision::None, int block_rhs = 0);

}  // namespace lqcd
