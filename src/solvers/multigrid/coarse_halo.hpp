#pragma once
// A multigrid coarse level distributed over processes as the fine one is (issue 50: "distribute the coarse
// levels as the fine one is"; QUDA's and Grid's way), instead of gathered whole onto every process
// (solvers/multigrid/coarse_agglomeration.hpp). Each process keeps the coarse sites of its own box and the
// coarse operator's rows of those sites (their neighbour blocks couple to sites across the process
// boundaries); one application of D_c first exchanges the faces of the input field:
//   - for each direction mu split over processes, the sites x_mu = 0 go to the backward neighbour and the
//     sites x_mu = n_mu - 1 to the forward one (GPU to GPU through NCCL where comm::device_messages_available,
//     else comm::send_receive through host buffers);
//   - what arrives is the ghost layer that the stencil's hops across the boundary read
//     (CoarseHaloApplyKernel), in the same order of terms as the whole-lattice stencil, so that a
//     distributed application equals the whole one's rows bit for bit.
// The Krylov solver's sums then run over the processes (CoarseField::process_grid). A coarse site's
// message is 2 n_v complex numbers: 24 test vectors give 384 bytes a site in single precision.

#include <cstdint>
#include <vector>

#include "core/geometry.hpp"
#include "core/macros.hpp"
#include "core/memory.hpp"
#include "solvers/multigrid/coarse_field.hpp"
#include "solvers/multigrid/coarse_operator_kernels.hpp"

namespace lqcd {

// Where the faces of a split coarse lattice lie in the send and ghost buffers (trivially copyable: kernels
// take it by value). Face (mu, side): side 0 the sites x_mu = 0 (sent backward; as a ghost, the forward
// neighbour's x_mu = 0 sites), side 1 the sites x_mu = n_mu - 1 (sent forward; as a ghost, the backward
// neighbour's last sites). A face's sites in lexicographic order of the other three coordinates.
struct CoarseFaceLayout {
  CoarseLattice lattice;
  int split[4];                 // 1 where direction mu crosses processes
  std::int64_t offset[4][2];    // first site of face (mu, side) in the buffers
  std::int64_t face_sites[4];   // sites of one face of direction mu
  std::int64_t sites = 0;       // of all faces together

  static CoarseFaceLayout of(const CoarseLattice& lattice, const Dims& grid);
  // The index of site x within its face of direction mu.
  LQCD_HOST_DEVICE std::int64_t face_index(const int x[4], int mu) const {
    std::int64_t i = 0, stride = 1;
    for (int k = 0; k < 4; ++k) {
      if (k == mu) continue;
      i += stride * x[k];
      stride *= lattice.n[k];
    }
    return i;
  }
  // Where hop d of site Y (a stencil direction, solvers/multigrid/coarse_operator_kernels.hpp) crosses a
  // process boundary: the ghost site it reads; else -1 (the hop stays on this process).
  LQCD_HOST_DEVICE std::int64_t ghost_site(std::int64_t Y, int d) const {
    if (d == 0) return -1;
    const int mu = (d - 1) / 2;
    if (!split[mu]) return -1;
    int x[4];
    lattice.coords(Y, x);
    if ((d - 1) % 2 == 0) return x[mu] == lattice.n[mu] - 1 ? offset[mu][0] + face_index(x, mu) : -1;
    return x[mu] == 0 ? offset[mu][1] + face_index(x, mu) : -1;
  }
  // The coarse site of face index f of direction mu on the given side.
  LQCD_HOST_DEVICE std::int64_t face_site(std::int64_t f, int mu, int side) const {
    int x[4];
    for (int k = 0; k < 4; ++k) {
      if (k == mu) continue;
      x[k] = int(f % lattice.n[k]);
      f /= lattice.n[k];
    }
    x[mu] = side == 0 ? 0 : lattice.n[mu] - 1;
    return lattice.lex(x);
  }
};

// send[(face site) * dof + k] = in(site, k) for every face site of every split direction: one thread per
// component.
template <typename Real>
struct CoarseFacePackKernel {
  CoarseFaceLayout L;
  const Complex<Real>* in;
  Complex<Real>* send;
  int dof;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const std::int64_t s = i / dof;
    const int k = int(i - s * dof);
    for (int mu = 0; mu < 4; ++mu)
      for (int side = 0; side < 2; ++side) {
        if (!L.split[mu]) continue;
        const std::int64_t f = s - L.offset[mu][side];
        if (f >= 0 && f < L.face_sites[mu]) send[i] = in[L.face_site(f, mu, side) * dof + k];
      }
  }
};

// sum_{d in [d_first, d_end)} sum_col A_d(Y)[row, col] in(neighbour_d(Y), col) on this process's part of a
// split lattice, the hops across the process boundaries read from the ghosts; the terms summed as
// stencil_row sums them (direction, then column), so that a split application equals the whole one's rows.
template <typename Real>
LQCD_HOST_DEVICE Complex<Real> halo_stencil_row(const CoarseStencilView<Real>& A, const CoarseFaceLayout& L,
                                                const Complex<Real>* in, const Complex<Real>* ghost, std::int64_t Y,
                                                int row, int d_first, int d_end) {
  const int dof = A.dof;
  Complex<Real> acc;
  for (int d = d_first; d < d_end; ++d) {
    const std::int64_t g = L.ghost_site(Y, d);
    const Complex<Real>* v = g >= 0 ? ghost + g * dof : in + A.neighbour(Y, d) * dof;
    const Complex<Real>* m = &A.at(d, Y, row, 0);
    for (int col = 0; col < dof; ++col) acc = multiply_add(m[std::int64_t(col) * dof], v[col], acc);
  }
  return acc;
}

// out = D_c in on this process's coarse sites (one thread per row of a site).
template <typename Real>
struct CoarseHaloApplyKernel {
  CoarseStencilView<Real> A;
  CoarseFaceLayout L;
  const Complex<Real>* in;
  const Complex<Real>* ghost;
  Complex<Real>* out;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const std::int64_t Y = i / A.dof;
    out[i] = halo_stencil_row(A, L, in, ghost, Y, int(i - Y * A.dof), 0, kStencilDirections);
  }
};

// The face exchange of one coarse lattice split over processes (coarse: the coarse lattice decomposed like
// the fine one, CoarseAgglomeration::geometry()). Buffers grow on first use; one exchange at a time.
class CoarseHalo {
 public:
  explicit CoarseHalo(const Geometry& coarse);
  const Geometry& geometry() const { return coarse_; }
  const CoarseFaceLayout& layout() const { return layout_; }
  // Whether any direction crosses processes.
  bool split() const { return layout_.sites > 0; }
  // ghost <- the neighbours' faces of `in` (collective over the grid). ghost must hold
  // layout().sites * in.dof() components at in's location.
  template <typename Real>
  void exchange(const CoarseField<Real>& in, Buffer<Complex<Real>>& send, Buffer<Complex<Real>>& ghost) const;
  // The same for `per_site` complex numbers a site at `in` (a field of another shape on this lattice:
  // the Galerkin product exchanges the test vectors, n_v columns of dof numbers a site).
  template <typename Real>
  void exchange(const Complex<Real>* in, int per_site, Location loc, Buffer<Complex<Real>>& send,
                Buffer<Complex<Real>>& ghost) const;

 private:
  Geometry coarse_;
  CoarseFaceLayout layout_;
  mutable std::vector<unsigned char> host_out_, host_in_;  // the faces on their way (grown on first use)
};

}  // namespace lqcd
