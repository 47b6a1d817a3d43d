#pragma once
// Fields of a multigrid coarse level (solvers/multigrid/multigrid.hpp): on each site of a coarse lattice, `dof`
// complex components, the first dof / 2 of chirality +1 and the rest of chirality -1 (the aggregation
// keeps gamma_5's eigenspaces apart, solvers/multigrid/transfer_operator.hpp). Stored site-major,
// component (site, k) at site * dof + k: a coarse site's components are read together (the dense
// coupling blocks of the coarse operator multiply whole sites). Double or single precision, host or
// device, move-only, with the vector operations the Krylov solvers use (the same names as
// fields/spinor_blas.hpp, so that a solver template takes either kind of field).

#include <cstdint>
#include <vector>

#include "core/geometry.hpp"
#include "core/macros.hpp"
#include "core/memory.hpp"
#include "math/complex.hpp"

namespace lqcd {

// A coarse lattice with periodic wrap inside the process (trivially copyable: kernels take it by value).
// Sites are numbered lexicographically, x fastest.
struct CoarseLattice {
  int n[4];  // extents
  std::int64_t sites;

  static CoarseLattice of(const Dims& d) {
    CoarseLattice c{{d[0], d[1], d[2], d[3]}, std::int64_t(d[0]) * d[1] * d[2] * d[3]};
    return c;
  }
  Dims dims() const { return {n[0], n[1], n[2], n[3]}; }
  LQCD_HOST_DEVICE void coords(std::int64_t s, int x[4]) const { lexicographic_coords(s, n, x); }
  LQCD_HOST_DEVICE std::int64_t lex(const int x[4]) const {
    return x[0] + std::int64_t(n[0]) * (x[1] + std::int64_t(n[1]) * (x[2] + std::int64_t(n[2]) * x[3]));
  }
  // The site one step from s in direction mu, forward (dir = +1) or backward (dir = -1), periodic.
  LQCD_HOST_DEVICE std::int64_t neighbour(std::int64_t s, int mu, int dir) const {
    int x[4];
    coords(s, x);
    LQCD_UNROLL
    for (int k = 0; k < 4; ++k)
      if (k == mu) x[k] = (x[k] + dir + n[k]) % n[k];
    return lex(x);
  }
};

// A coarse lattice whole on this process as a Geometry (global = local, no offset; any extents, which
// Geometry::single_process would refuse).
inline Geometry whole_geometry(const CoarseLattice& lattice) {
  Geometry g;
  g.global = g.local = lattice.dims();
  return g;
}

template <typename Real>
struct CoarseView {
  Complex<Real>* data;
  std::int64_t sites;
  int dof;
  LQCD_HOST_DEVICE Complex<Real>& at(std::int64_t s, int k) const { return data[s * dof + k]; }
};

template <typename Real>
class CoarseField {
 public:
  // grid: the processes this lattice is split over (solvers/multigrid/coarse_halo.hpp), whose parts the
  // reductions (dot, norm2, ...) sum; one process: the field is whole here.
  CoarseField(const CoarseLattice& lattice, int dof, Location loc, const Dims& grid = {1, 1, 1, 1})
      : lattice_(lattice), dof_(dof), grid_(grid), data_(std::size_t(lattice.sites) * std::size_t(dof), loc) {}
  CoarseField(CoarseField&&) noexcept = default;
  CoarseField& operator=(CoarseField&&) noexcept = default;
  CoarseField(const CoarseField&) = delete;
  CoarseField& operator=(const CoarseField&) = delete;

  const CoarseLattice& lattice() const { return lattice_; }
  int dof() const { return dof_; }
  Location location() const { return data_.location(); }
  std::int64_t sites() const { return lattice_.sites; }
  // Complex components: sites() * dof().
  std::int64_t size() const { return std::int64_t(data_.size()); }
  CoarseView<Real> view() const { return {data_.data(), lattice_.sites, dof_}; }
  const Dims& process_grid() const { return grid_; }
  CoarseField like() const { return CoarseField(lattice_, dof_, location(), grid_); }
  CoarseField clone(Location loc) const {
    CoarseField f(lattice_, dof_, loc, grid_);
    f.copy_from(*this);
    return f;
  }
  void copy_from(const CoarseField& o) { data_.copy_from(o.data_); }

 private:
  CoarseLattice lattice_;
  int dof_;
  Dims grid_;
  Buffer<Complex<Real>> data_;
};

// The vector operations (reductions in double precision, deterministic as fields/spinor_blas.hpp's; summed
// over the field's process grid).
template <typename Real>
void axpy(Complex<double> a, const CoarseField<Real>& x, CoarseField<Real>& y);  // y <- a x + y
template <typename Real>
void scale(Complex<double> a, CoarseField<Real>& x);
template <typename Real>
void set_zero(CoarseField<Real>& x);
template <typename Real>
Complex<double> dot(const CoarseField<Real>& x, const CoarseField<Real>& y);  // sum conj(x) y
template <typename Real>
double norm2(const CoarseField<Real>& x);
// y <- a x + y, returning ||y||^2.
template <typename Real>
double axpy_norm2(Complex<double> a, const CoarseField<Real>& x, CoarseField<Real>& y);
// flexible GCR's orthogonalisation (solvers/krylov/flexible_gcr.hpp) for coarse fields: q_k <- q_k - sum_j
// beta_j q_j and z_k <- z_k - sum_j beta_j z_j with beta_j = <q_j, q_k> over all j < k at once
// (classical Gram-Schmidt, batched: a few launches and host synchronisations instead of three
// launches and one synchronisation per j, which dominate on small coarse lattices), applied twice
// ("twice is enough": Giraud, Langou, Rozloznik, van den Eshof, Numer. Math. 101 (2005) 87).
template <typename Real>
void gcr_orthogonalise(std::vector<CoarseField<Real>>& q, std::vector<CoarseField<Real>>& z, int k);
// out <- in, rounded to out's precision (the same lattice, dof and location).
template <typename To, typename From>
void convert_precision(CoarseField<To>& out, const CoarseField<From>& in);

}  // namespace lqcd
