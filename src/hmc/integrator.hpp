#pragma once
// Symplectic, reversible integrators of the molecular dynamics with nested time scales
// (J. C. Sexton, D. H. Weingarten, Nucl. Phys. B 380 (1992) 665). Level 0 is the outermost: the
// trajectory of length tau is n_0 steps of the chosen scheme; inside a level-k step, every link
// update of length h is replaced by n_{k+1} steps of the scheme at level k+1 over h, and only the
// last level moves the links. Each level kicks the momenta with the forces of its own monomials; a kick
// whose links have not moved since its level's previous kick reuses that force (the last kick of one
// step and the first of the next: Omelyan-2 computes 2n + 1 forces for n steps, not 3n).
//   leapfrog  P(h/2) U(h) P(h/2)                                                    (order 2)
//   omelyan2  P(lh) U(h/2) P((1-2l)h) U(h/2) P(lh),  l = 0.1931833275037836        (order 2, minimal norm)
//   omelyan4  P(r1 h) U(r2 h) P(r3 h) U(r4 h) P(r5 h) U(r6 h) P(r5 h) U(r4 h) P(r3 h) U(r2 h) P(r1 h)
//             r1 = 0.08398315262876693, r2 = 0.2539785108410595, r3 = 0.6822365335719091,
//             r4 = -0.03230286765269967, r5 = 1/2 - r1 - r3, r6 = 1 - 2 (r2 + r4)      (order 4)
//   force_gradient  P(h/6) U(h/2) P~(2h/3) U(h/2) P(h/6)                         (order 4)
//             P~: the kick with the force at the displaced links exp(-i (h^2/24) F) U, which stands for
//             exp(2h/3 B + h^3/72 [B, [A, B]]) without the Hessian
// (I. P. Omelyan, I. M. Mryglod, R. Folk, Comput. Phys. Commun. 151 (2003) 272, eqs. 31 and 71;
// T. Takaishi, Ph. de Forcrand, Phys. Rev. E 73 (2006) 036706; force gradient: M. A. Clark,
// B. Joo, A. D. Kennedy, P. J. Silva, Phys. Rev. D 84 (2011) 071502; H. Yin, R. D. Mawhinney,
// PoS LATTICE2011 051.)

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hmc/monomial.hpp"

namespace lqcd {

enum class IntegratorType { Leapfrog, Omelyan2, Omelyan4, ForceGradient };

// "leapfrog", "omelyan2", "omelyan4", "force_gradient"; anything else throws naming `key`.
IntegratorType integrator_type_from_name(const std::string& name, const std::string& key = "integrator.type");
std::string integrator_type_name(IntegratorType type);

struct IntegratorParams {
  IntegratorType type = IntegratorType::Omelyan2;
  double tau = 1.0;
  std::vector<int> steps{10};  // steps per level, outermost first
};

class Integrator {
 public:
  // Every monomial's level must be < steps.size() (checked; the error names integrator.steps).
  Integrator(const IntegratorParams& params, std::vector<Monomial*> monomials);

  // Moves (U, P) along the trajectory of length params.tau.
  void integrate(GaugeField<double>& U, MomentumField& P);
  // Per monomial (in the order given to the constructor), since the last take_force_stats(): the
  // wall-clock seconds of its forces (their solves included), how many it computed, and the sum and
  // the largest of their sizes |F| = sqrt(sum_a (F^a)^2 / (4 V)), the root mean square over links of
  // the force's components in the T^a basis (what sets the step size a level needs).
  struct ForceStats {
    double seconds = 0;
    long evaluations = 0;
    double sum_rms = 0, max_rms = 0;
    double mean_rms() const { return evaluations ? sum_rms / double(evaluations) : 0.0; }
  };
  std::vector<ForceStats> take_force_stats();

 private:
  void step(int level, double h, GaugeField<double>& U, MomentumField& P);
  void move_links(int level, double h, GaugeField<double>& U, MomentumField& P);
  // The forces of `level` at U: computed (timed, counted) unless the links have not moved since the
  // level's last ones, which are then returned again (Omelyan's and leapfrog's back-to-back kicks).
  const MomentumField& compute_force(int level, const GaugeField<double>& U);
  // U <- exp(i eps P) U, and a new version of the links.
  void links_moved(GaugeField<double>& U, const MomentumField& P, double eps);
  void kick(int level, double eps, const GaugeField<double>& U, MomentumField& P);
  // P -= eps F(exp(-i shift F(U)) U) with the forces of `level` (the force-gradient kick).
  void gradient_kick(int level, double eps, double shift, GaugeField<double>& U, MomentumField& P);

  IntegratorParams params_;
  std::vector<std::vector<std::pair<Monomial*, std::size_t>>> levels_;  // (monomial, its index)
  std::vector<std::unique_ptr<MomentumField>> forces_;  // per level: its monomials' forces, computed at
  std::vector<std::uint64_t> forces_at_;                // this version of the links (0: never)
  std::uint64_t links_version_ = 0;                     // counts the link moves
  bool reuse_forces_ = true;  // LQCD_REUSE_FORCES=0 computes every kick's force (for A/B timings)
  std::unique_ptr<MomentumField> single_;               // one monomial's force (several on a level)
  Geometry geometry_;                                   // what the fields above were made for
  Location location_ = Location::Host;
  std::vector<ForceStats> stats_;
  std::unique_ptr<GaugeField<double>> saved_links_;  // force-gradient kicks: the links before the shift
};

}  // namespace lqcd
