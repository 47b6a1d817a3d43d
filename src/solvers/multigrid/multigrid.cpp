#include "solvers/multigrid/multigrid.hpp"

#include <cmath>
#include <type_traits>

#include "core/environment_switch.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "fields/spinor_blas.hpp"
#include "solvers/multigrid/multigrid_level_steps.hpp"
#include "solvers/multigrid/multigrid_support.hpp"

namespace lqcd {

namespace {
// x = A^{-1} b by solve(apply, x, b) (a GCR): in even-odd form through `schur` where A has one (schur_rhs:
// its work field), else on A itself. The coarse solves of two levels and the third level's solves.
template <typename Real, typename Solve>
GcrOutcome solve_coarse_system(const Solve& solve, const CoarseOperator<Real>& A, CoarseSchurComplement<Real>* schur,
                               CoarseField<Real>& schur_rhs, CoarseField<Real>& x, const CoarseField<Real>& b) {
  if (!schur) return solve([&A](CoarseField<Real>& out, const CoarseField<Real>& in) { A.apply(out, in); }, x, b);
  // S x_e = rhs_e (odd sites zero throughout), then x_o from x_e.
  schur->prepare(schur_rhs, b);
  const GcrOutcome o =
      solve([schur](CoarseField<Real>& out, const CoarseField<Real>& in) { schur->apply(out, in); }, x, schur_rhs);
  schur->reconstruct(x);
  return o;
}

// solve_coarse_system's solve by a CoarseGcr (which must outlive it) to c.
template <typename Real>
auto gcr_solve(CoarseGcr<Real>& gcr, const GcrControl& c) {
  return [&gcr, c](const auto& apply, CoarseField<Real>& x, const CoarseField<Real>& b) { return gcr.solve(apply, x, b, c); };
}

// The candidates of a coarse solve's deflation (solvers/multigrid/coarse_deflation.hpp) from the n test vectors
// of the level above: each one's restriction (restrict_vector(c, k): c = P^dag v_k) split by chirality,
// the coarse components [0, n_v) and [n_v, 2 n_v) (solvers/multigrid/transfer_operator.hpp), and kept on the
// even sites only for the even-odd form (whose fields are zero on the odd ones).
template <typename Real, typename Restrict>
std::vector<CoarseField<Real>> deflation_candidates(std::size_t n, const Restrict& restrict_vector,
                                                    const CoarseField<Real>& like, bool even_sites) {
  std::vector<CoarseField<Real>> w;
  CoarseField<Real> c = like.like();
  const CoarseLattice& L = like.lattice();
  const int dof = like.dof();
  for (std::size_t k = 0; k < n; ++k) {
    restrict_vector(c, k);
    const CoarseField<Real> whole = c.clone(Location::Host);
    for (int chirality = 0; chirality < 2; ++chirality) {
      CoarseField<Real> part = whole.clone(Location::Host);
      const CoarseView<Real> v = part.view();
      for (std::int64_t s = 0; s < v.sites; ++s) {
        int x[4];
        L.coords(s, x);
        const bool odd = ((x[0] + x[1] + x[2] + x[3]) & 1) != 0;
        for (int i = 0; i < dof; ++i)
          if ((even_sites && odd) || ((i < dof / 2) != (chirality == 0))) v.at(s, i) = Complex<Real>();
      }
      w.push_back(part.clone(like.location()));
    }
  }
  return w;
}

// The deflation of the solves of A (or of its even-odd form where schur is not null).
template <typename Real>
std::unique_ptr<CoarseDeflation<Real>> make_deflation(const CoarseOperator<Real>& A,
                                                      const CoarseSchurComplement<Real>* schur,
                                                      std::vector<CoarseField<Real>> candidates) {
  if (schur)
    return std::make_unique<CoarseDeflation<Real>>(
        [schur](CoarseField<Real>& out, const CoarseField<Real>& in) { schur->apply(out, in); }, std::move(candidates));
  return std::make_unique<CoarseDeflation<Real>>(
      [&A](CoarseField<Real>& out, const CoarseField<Real>& in) { A.apply(out, in); }, std::move(candidates));
}

}  // namespace

template <typename Real>
MultigridPreconditionerInfo MultigridPreconditioner<Real>::info() const {
  MultigridPreconditionerInfo i;
  i.fine = D_.geometry().global;
  i.block = p_.block;
  i.coarse = agglomeration_.whole().dims();
  i.coarse_distributed = coarse_.distributed();
  i.coarse_dof = transfer_.coarse_dof();
  i.precision = std::is_same_v<Real, double> ? "double" : "single";
  i.coarse_even_odd = schur_ != nullptr;
  i.levels = third_ ? 3 : 2;
  if (third_) {
    i.coarsest = third_->op.lattice().dims();
    i.coarsest_dof = third_->op.dof();
    i.coarsest_direct = third_->direct != nullptr;
  }
  i.timings = t_;
  return i;
}

namespace {
MultigridParams with_levels(const MultigridParams& p, const Geometry& lattice) {
  check_multigrid_params(p);
  MultigridParams q = p;
  q.levels = multigrid_levels(p, lattice.global, lattice.grid);
  return q;
}

// The coarse operator on the whole coarse lattice, or with coarse_distributed this process's rows.
template <typename Real>
CoarseOperator<Real> make_coarse_operator(const MultigridParams& p, const CoarseAgglomeration& a, int dof,
                                          Location loc) {
  if (!p.coarse_distributed) return CoarseOperator<Real>(a.whole(), dof, loc);
  return CoarseOperator<Real>(a.part(), dof, loc, std::make_shared<const CoarseHalo>(a.geometry()));
}
}  // namespace

template <typename Real>
MultigridPreconditioner<Real>::MultigridPreconditioner(const LinearOperator<Real>& D, const MultigridParams& p)
    : D_(D),
      p_(with_levels(p, D.geometry())),
      transfer_(D.geometry(), p.block, p.test_vectors, D.location()),
      agglomeration_(D.geometry(), transfer_.aggregation()),
      coarse_(make_coarse_operator<Real>(p, agglomeration_, transfer_.coarse_dof(), D.location())),
      res_(D.make_field()),
      tmp_(D.make_field()),
      e_(D.make_field()),
      mr_r_(D.make_field()),
      mr_p_(D.make_field()),
      schwarz_(D, transfer_.aggregation(), p.smoother == MultigridSmoother::Schwarz ? p.block_iterations : 0),
      rc_(coarse_.make_field()),
      ec_(coarse_.make_field()),
      schur_rhs_(coarse_.make_field()),
      coarse_work_(rc_, p_.levels == 3 || p.coarse_distributed ? p.coarse_restart : 0),
      coarse_gcr_(rc_, p.coarse_distributed ? 1 : p.coarse_restart) {  // split: flexible_gcr on coarse_work_
  transfer_.use_half_vectors(p.transfer_half);
  if (D.subset() != Subset::Full) fail("internal: multigrid on an operator that is not the full-lattice one");
  if (agglomeration_.distributed() && !coarse_.distributed()) {
    coarse_part_ = std::make_unique<CoarseOperator<Real>>(agglomeration_.part(), transfer_.coarse_dof(), D.location());
    rc_part_ = std::make_unique<CoarseField<Real>>(transfer_.make_coarse());
    ec_part_ = std::make_unique<CoarseField<Real>>(transfer_.make_coarse());
  }
  if (p_.levels == 3) {
    third_ = std::make_unique<ThirdLevel<Real>>(coarse_, p_);
    if (p.coarse_half && !coarse_part_ && CoarseSchurComplement<Real>::possible(coarse_.lattice()) &&
        switch_from_environment("LQCD_COARSE_HALF_FULL", false))
      coarse_half_form_ = std::make_unique<CoarseSchurComplement<Real>>(coarse_, true);
  } else if (p.coarse_even_odd && CoarseSchurComplement<Real>::possible(coarse_.lattice())) {
    schur_ = std::make_unique<CoarseSchurComplement<Real>>(coarse_, p.coarse_half);
  }
}

template <typename Real>
void MultigridPreconditioner<Real>::smooth(SpinorField<Real>& e, const SpinorField<Real>& r, int steps) {
  if (p_.smoother == MultigridSmoother::Schwarz) {
    t_.fine_applications += schwarz_.smooth(e, r, steps);
  } else {
    mr_steps(e, r, steps);
  }
}

template <typename Real>
void MultigridPreconditioner<Real>::mr_steps(SpinorField<Real>& e, const SpinorField<Real>& r, int steps) {
  const auto apply = [this](SpinorField<Real>& out, const SpinorField<Real>& in) {
    D_.apply(out, in);
    ++t_.fine_applications;
  };
  minimal_residual_steps(apply, e, r, mr_r_, mr_p_, steps);
}

template <typename Real>
void MultigridPreconditioner<Real>::rebuild(bool third_level) {
  Section s(t_.setup_coarse, D_.location());
  for (int k = 0; k < p_.test_vectors; ++k) transfer_.set_vector(k, vectors_[std::size_t(k)]);
  {
    Section o(t_.setup_orthonormalise, D_.location());
    transfer_.orthonormalise();
  }
  if (coarse_part_) {  // this process's rows, then the whole operator on every process
    t_.fine_applications += coarse_part_->build(D_, transfer_);
    agglomeration_.gather(coarse_, *coarse_part_);
  } else {
    t_.fine_applications += coarse_.build(D_, transfer_);
  }
  coarse_.scale_twisted_mass(p_.coarse_mu_factor);
  if (schur_) schur_->update();
  if (coarse_half_form_) coarse_half_form_->update();
  coarse_gcr_.set_deflation(nullptr);
  if (block_gcr_) block_gcr_->set_deflation(nullptr);
  deflation_.reset();
  if (p_.coarse_deflation && !third_) {
    const auto restrict_vector = [this](CoarseField<Real>& c, std::size_t k) { restrict_to_coarse(c, vectors_[k]); };
    deflation_ = make_deflation(coarse_, schur_.get(), deflation_candidates(vectors_.size(), restrict_vector, rc_, schur_ != nullptr));
    coarse_gcr_.set_deflation(deflation_.get());
    if (block_gcr_) block_gcr_->set_deflation(deflation_.get());
  }
  if (third_ && third_level) {
    Section t(t_.setup_third_level, D_.location());
    setup_third_level();
  }
}

template <typename Real>
void MultigridPreconditioner<Real>::improve_vectors(int gcr_iterations, bool with_cycle) {
  const auto apply_fine = [this](SpinorField<Real>& out, const SpinorField<Real>& in) {
    D_.apply(out, in);
    ++t_.fine_applications;
  };
  if (with_cycle && coarse_blocks_possible() && p_.test_vectors > 1) {
    // The bootstrap's cycles kSetupBlockWidth vectors at a time through the block cycle (issue 46: the
    // setup through the multi-RHS path): the coarse levels read once per block, not once per vector.
    std::vector<SpinorField<Real>> res, zs;
    for (int i = 0; i < std::min(p_.test_vectors, kSetupBlockWidth); ++i) {
      res.push_back(D_.make_field());
      zs.push_back(D_.make_field());
    }
    improve_test_vectors_blocked(
        apply_fine,
        [this](const std::vector<SpinorField<Real>*>& out, const std::vector<const SpinorField<Real>*>& in) {
          apply(out, in);
        },
        vectors_, res, zs, "a");
    release_block();  // the solves make their blocks for their own width
    return;
  }
  SpinorField<Real> z = D_.make_field();
  if (with_cycle) {
    improve_test_vectors(apply_fine, [this](SpinorField<Real>& out, const SpinorField<Real>& in) { apply(out, in); },
                         vectors_, res_, z, "a");
    return;
  }
  // GCR(8) on D z = -D x from z = 0: minimises ||D (x + z)|| over a Krylov space (QUDA solves D x = 0
  // in the same way).
  improve_test_vectors(apply_fine, gcr_iterations_from_zero(apply_fine, setup_work_, gcr_iterations), vectors_, res_, z,
                       "a");
}

template <typename Real>
ThirdLevel<Real>::ThirdLevel(const CoarseOperator<Real>& Dc, const MultigridParams& p)
    : second(Dc.placement()),
      transfer(Dc.lattice(), Dc.dof(), p.coarse_block, p.coarse_test_vectors, Dc.location(), "multigrid.coarse_block",
               second.grid),
      agglomeration(second, transfer.aggregation()),
      op(agglomeration.whole(), transfer.coarse_dof(), Dc.location()),
      r(op.make_field()),
      e(op.make_field()),
      schur_rhs(op.make_field()),
      res(Dc.make_field()),
      mr_r(Dc.make_field()),
      mr_p(Dc.make_field()),
      smoothed(Dc.make_field()),
      gcr(r, p.coarse_restart) {
  if (Dc.distributed()) {
    op_part = std::make_unique<CoarseOperator<Real>>(agglomeration.part(), transfer.coarse_dof(), Dc.location());
    r_part = std::make_unique<CoarseField<Real>>(transfer.make_coarse());
    e_part = std::make_unique<CoarseField<Real>>(transfer.make_coarse());
  }
  if (CoarseSchurComplement<Real>::possible(op.lattice()))
    schur = std::make_unique<CoarseSchurComplement<Real>>(op, p.coarse_half);
  if (CoarseDirectSolve<Real>::unknowns(op, schur != nullptr) <= p.coarsest_direct_max)
    direct = std::make_unique<CoarseDirectSolve<Real>>(op, schur.get());
}

template <typename Real>
void ThirdLevel<Real>::restrict_to_third(const CoarseField<Real>& f) {
  if (!r_part) {
    transfer.restrict_to(r, f);
    return;
  }
  transfer.restrict_to(*r_part, f);
  agglomeration.gather(r, *r_part);
}

template <typename Real>
void ThirdLevel<Real>::prolong_from_third(CoarseField<Real>& f) {
  if (!e_part) {
    transfer.prolong(f, e);
    return;
  }
  agglomeration.scatter(*e_part, e);
  transfer.prolong(f, *e_part);
}

// The second level's test vectors from random fields by GCR(8) on D_c x = 0 (made again at each rebuild
// that builds the third level: D_c's basis changes with the first level's vectors), then D_cc.
template <typename Real>
void MultigridPreconditioner<Real>::setup_third_level() {
  ThirdLevel<Real>& L = *third_;
  if (L.vectors.empty())
    for (int k = 0; k < p_.coarse_test_vectors; ++k) L.vectors.push_back(coarse_.make_field());
  for (int k = 0; k < p_.coarse_test_vectors; ++k)
    L.transfer.random_field(L.vectors[std::size_t(k)], p_.seed, k, L.second);
  const auto apply_coarse = [this](CoarseField<Real>& out, const CoarseField<Real>& in) { coarse_.apply(out, in); };
  if (p_.coarse_setup_iterations > 0 && coarse_.distributed()) {
    // One vector at a time by the host-driven GCR, whose sums run over the processes (no block
    // application on a split level).
    GcrWorkspace<CoarseField<Real>> work(L.res, kSetupGcrRestart);
    improve_test_vectors(apply_coarse, gcr_iterations_from_zero(apply_coarse, work, p_.coarse_setup_iterations),
                         L.vectors, L.mr_r, L.mr_p, "a second-level");
  } else if (p_.coarse_setup_iterations > 0) {
    // The GCR(8) corrections of all vectors together: one block GCR, D_c read once per iteration for
    // all of them (issue 46: the setup through the multi-RHS path).
    const int n = p_.coarse_test_vectors;
    CoarseBlockField<Real> b(coarse_.lattice(), coarse_.dof(), n, D_.location()), x = b.like();
    CoarseBlockGcr<Real> gcr(b, kSetupGcrRestart);
    const auto correct = [&](const std::vector<CoarseField<Real>*>& z, const std::vector<const CoarseField<Real>*>& r) {
      for (std::size_t k = 0; k < r.size(); ++k) pack_rhs(b, int(k), *r[k]);
      GcrControl c;
      c.tolerance = 1e-30;  // a fixed number of iterations
      c.max_iterations = p_.coarse_setup_iterations;
      c.restart = kSetupGcrRestart;
      gcr.solve([this](CoarseBlockField<Real>& out, const CoarseBlockField<Real>& in) { coarse_.apply(out, in); }, x, b, c);
      for (std::size_t k = 0; k < z.size(); ++k) unpack_rhs(*z[k], x, int(k));
    };
    std::vector<CoarseField<Real>> res, z;
    for (int k = 0; k < n; ++k) {
      res.push_back(coarse_.make_field());
      z.push_back(coarse_.make_field());
    }
    improve_test_vectors_blocked(apply_coarse, correct, L.vectors, res, z, "a second-level");
  }
  for (int k = 0; k < p_.coarse_test_vectors; ++k) L.transfer.set_vector(k, L.vectors[std::size_t(k)]);
  L.transfer.orthonormalise();
  if (L.op_part) {  // this process's rows, then the whole D_cc on every process
    L.op_part->build_galerkin(coarse_, L.transfer);
    L.agglomeration.gather(L.op, *L.op_part);
  } else {
    L.op.build_galerkin(coarse_, L.transfer);
  }
  if (L.schur) L.schur->update();
  if (L.direct) L.direct->update();
  L.gcr.set_deflation(nullptr);
  if (third_block_) third_block_->gcr.set_deflation(nullptr);
  L.deflation.reset();
  if (p_.coarse_deflation && !L.direct) {
    const auto restrict_vector = [&L](CoarseField<Real>& c, std::size_t k) {
      L.restrict_to_third(L.vectors[k]);
      c.copy_from(L.r);
    };
    L.deflation = make_deflation(L.op, L.schur.get(), deflation_candidates(L.vectors.size(), restrict_vector, L.r, L.schur != nullptr));
    L.gcr.set_deflation(L.deflation.get());
    if (third_block_) third_block_->gcr.set_deflation(L.deflation.get());
  }
}

template <typename Real>
void MultigridPreconditioner<Real>::setup() {
  with_memory_advice(p_, [this] { setup_hierarchy(); });
}

template <typename Real>
void MultigridPreconditioner<Real>::setup_hierarchy() {
  setup_work_ = GcrWorkspace<SpinorField<Real>>(res_, kSetupGcrRestart);
  {
    Section s(t_.setup_vectors, D_.location());
    if (vectors_.empty())
      for (int k = 0; k < p_.test_vectors; ++k) vectors_.push_back(D_.make_field());
    for (int k = 0; k < p_.test_vectors; ++k) transfer_.random_field(vectors_[std::size_t(k)], p_.seed, k);
    if (p_.setup_sweeps > 0) {  // (the Schwarz smoother: check_multigrid_params)
      // x <- x - S D x: the sweeps on D x = 0 from x, i.e. z += S (0 - D z) with z = x
      SpinorField<Real> zero = D_.make_field();
      set_zero(zero);
      std::vector<SpinorField<Real>*> x;
      std::vector<const SpinorField<Real>*> r;
      for (SpinorField<Real>& v : vectors_) {
        x.push_back(&v);
        r.push_back(&zero);
      }
      schwarz_from_guess(x, r, p_.setup_sweeps);
    }
    if (p_.setup_iterations > 0) improve_vectors(p_.setup_iterations, false);
  }
  rebuild();
  ready_ = true;
  setup_work_ = GcrWorkspace<SpinorField<Real>>();  // not needed by the cycles: their fields take its place
  for (int c = 0; c < p_.adaptive_cycles; ++c) {
    {
      const MultigridTimings before = t_;
      Stopwatch watch;
      improve_vectors(0, true);
      synchronise(D_.location());
      // The cycles' own time is setup time here, not solve time.
      t_.setup_vectors += watch.seconds();
      t_.setup_cycles += watch.seconds();
      t_.set_solve_timings(before);
    }
    // The third level only at the last rebuild: the adaptive cycles before it solve the (new) D_c to
    // coarse_tolerance all the same, with the earlier third level as a weaker preconditioner.
    rebuild(c + 1 == p_.adaptive_cycles || switch_from_environment("LQCD_THIRD_LEVEL_EVERY_REBUILD", false));
  }
  setup_work_ = GcrWorkspace<SpinorField<Real>>();  // its fields freed
}

template <typename Real>
void MultigridPreconditioner<Real>::refresh(int iterations) {
  if (!ready_) {
    setup();
    return;
  }
  {
    Section s(t_.setup_vectors, D_.location());
    if (iterations > 0) {
      setup_work_ = GcrWorkspace<SpinorField<Real>>(res_, kSetupGcrRestart);
      improve_vectors(iterations, false);
      setup_work_ = GcrWorkspace<SpinorField<Real>>();
    }
  }
  rebuild();
}

template <typename Real>
void MultigridPreconditioner<Real>::reset_solve_timings() {
  t_.set_solve_timings(MultigridTimings{});
}

template <typename Real>
void MultigridPreconditioner<Real>::restrict_to_coarse(CoarseField<Real>& c, const SpinorField<Real>& f) {
  if (!rc_part_) {
    transfer_.restrict_to(c, f);
    return;
  }
  transfer_.restrict_to(*rc_part_, f);
  agglomeration_.gather(c, *rc_part_);
}

template <typename Real>
void MultigridPreconditioner<Real>::prolong_add_from_coarse(SpinorField<Real>& f, const CoarseField<Real>& c) {
  if (!ec_part_) {
    transfer_.prolong_add(f, c);
    return;
  }
  agglomeration_.scatter(*ec_part_, c);
  transfer_.prolong_add(f, *ec_part_);
}

template <typename Real>
void MultigridPreconditioner<Real>::solve_coarse() {
  GcrControl c;
  c.tolerance = p_.coarse_tolerance;
  c.max_iterations = p_.coarse_max_iterations;
  c.restart = p_.coarse_restart;
  GcrOutcome o;
  const auto apply_coarse = [this](CoarseField<Real>& out, const CoarseField<Real>& in) { coarse_.apply(out, in); };
  if (third_) {
    const auto cycle = [this](CoarseField<Real>& z, const CoarseField<Real>& r) { coarse_cycle(z, r); };
    o = flexible_gcr(apply_coarse, cycle, ec_, rc_, c, coarse_work_, false);
  } else if (coarse_.distributed()) {
    // GCR, driven from the host: its sums over the processes (CoarseGcr keeps its scalars on the device).
    const auto gcr = [this, &c](const auto& apply, CoarseField<Real>& x, const CoarseField<Real>& b) {
      const auto identity = [](CoarseField<Real>& z, const CoarseField<Real>& r) { z.copy_from(r); };
      return flexible_gcr(apply, identity, x, b, c, coarse_work_, false);
    };
    o = solve_coarse_system(gcr, coarse_, schur_.get(), schur_rhs_, ec_, rc_);
  } else {
    o = solve_coarse_system(gcr_solve(coarse_gcr_, c), coarse_, schur_.get(), schur_rhs_, ec_, rc_);
  }
  t_.coarse_iterations += o.iterations;
}

template <typename Real>
void MultigridPreconditioner<Real>::solve_coarsest() {
  ThirdLevel<Real>& L = *third_;
  if (L.direct) {
    L.direct->solve(L.e, L.r);
    return;
  }
  GcrControl c;
  c.tolerance = p_.coarsest_tolerance;
  c.max_iterations = p_.coarsest_max_iterations;
  c.restart = p_.coarse_restart;
  t_.coarsest_iterations += solve_coarse_system(gcr_solve(L.gcr, c), L.op, L.schur.get(), L.schur_rhs, L.e, L.r).iterations;
}

// K_c r: the third-level correction, then MR steps on D_c against what it left.
template <typename Real>
void MultigridPreconditioner<Real>::coarse_cycle(CoarseField<Real>& z, const CoarseField<Real>& r) {
  ThirdLevel<Real>& L = *third_;
  {
    Section s(t_.coarsest, D_.location());
    L.restrict_to_third(r);
    solve_coarsest();
    L.prolong_from_third(z);
  }
  if (p_.coarse_smoothing > 0) {
    Section s(t_.coarse_smoothing, D_.location());
    coarse_.apply(L.res, z);
    scale(Complex<double>(-1.0), L.res);
    axpy(Complex<double>(1.0), r, L.res);  // r - D_c z
    const auto apply_coarse = [this](CoarseField<Real>& out, const CoarseField<Real>& in) { coarse_.apply(out, in); };
    minimal_residual_steps(apply_coarse, L.smoothed, L.res, L.mr_r, L.mr_p, p_.coarse_smoothing);
    axpy(Complex<double>(1.0), L.smoothed, z);
  }
}

template <typename Real>
const SpinorField<Real>& MultigridPreconditioner<Real>::pre_smooth(SpinorField<Real>& z, const SpinorField<Real>& r,
                                                                 SpinorField<Real>& res, bool overwritten) {
  if (p_.pre_smoothing == 0) {
    if (!overwritten) set_zero(z);
    return r;
  }
  Section s(t_.smoother, D_.location());
  smooth(z, r, p_.pre_smoothing);
  D_.apply(tmp_, z);
  ++t_.fine_applications;
  res.copy_from(r);
  axpy(Complex<double>(-1.0), tmp_, res);
  return res;
}

template <typename Real>
void MultigridPreconditioner<Real>::post_smooth(SpinorField<Real>& z, const SpinorField<Real>& r) {
  if (p_.post_smoothing == 0) return;
  Section s(t_.smoother, D_.location());
  if (p_.smoother == MultigridSmoother::Schwarz) {  // from z: each colour's residual on its blocks only
    t_.fine_applications += schwarz_.smooth(z, r, p_.post_smoothing, true);
    return;
  }
  D_.apply(tmp_, z);
  ++t_.fine_applications;
  res_.copy_from(r);
  axpy(Complex<double>(-1.0), tmp_, res_);
  smooth(e_, res_, p_.post_smoothing);
  axpy(Complex<double>(1.0), e_, z);
}

template <typename Real>
void MultigridPreconditioner<Real>::cycle_start(SpinorField<Real>& z, const SpinorField<Real>& r) {
  ++t_.cycles;
  const SpinorField<Real>& f = pre_smooth(z, r, res_);
  Section s(t_.transfer, D_.location());
  restrict_to_coarse(rc_, f);
}

template <typename Real>
void MultigridPreconditioner<Real>::cycle_finish(SpinorField<Real>& z, const SpinorField<Real>& r) {
  {
    Section s(t_.transfer, D_.location());
    prolong_add_from_coarse(z, ec_);
  }
  post_smooth(z, r);
}

template <typename Real>
void MultigridPreconditioner<Real>::apply(SpinorField<Real>& z, const SpinorField<Real>& r) {
  if (!ready_) fail("internal: multigrid cycle before setup()");
  cycle_start(z, r);
  {
    Section s(t_.coarse_solve, D_.location());
    solve_coarse();
  }
  cycle_finish(z, r);
}

template struct ThirdLevel<double>;
template struct ThirdLevel<float>;
template class MultigridPreconditioner<double>;
template class MultigridPreconditioner<float>;

}  // namespace lqcd
