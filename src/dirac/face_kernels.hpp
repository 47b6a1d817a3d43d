#pragma once
// The hopping term across the faces of a process's box (issue 6). Where direction mu is split over
// processes (the geometry has a halo in mu), the hops of WilsonHoppingKernel that would leave the box
// are left out there and added here, from messages of spin-projected half spinors (half_spinor.hpp):
//   to the forward neighbour:  h = U_mu(y)^dag (1 + sign gamma_mu) psi(y) at y_mu = n_mu - 1, which it
//                              needs for its backward hops at x_mu = 0 (the link lives here, so the
//                              product is formed here and no link halo is needed);
//   to the backward neighbour: h = (1 - sign gamma_mu) psi(y) at y_mu = 0, which it multiplies by its
//                              own U_mu(x) for its forward hops at x_mu = n_mu - 1;
// sign = +1 for H, -1 for H^dag. 12 reals per face site of the needed parity, instead of the 24 of
// the site's spinor and both parities that a generic halo exchange moves. Boundary phases are
// applied by the receiver, which knows where the global boundary is.
//
// Face sites are numbered the same way on both sides: f = q * half + j, q the parity slot of the
// hopping term's output (0 for a one-parity output; 0 even, 1 odd for a full one), j the
// checkerboard index of the face's other three coordinates a < b < c (a fastest, halved in a). Both
// sides agree on x_a because every local extent is even. A message is component-major (component k
// of face site f at k * count + f), so consecutive threads touch consecutive words.

#include <cstdint>

#include "dirac/wilson_kernels.hpp"

namespace lqcd {

// Coordinates with a run-time direction index, through constant indices only (a run-time x[k]
// would move the coordinates to GPU local memory).
LQCD_HOST_DEVICE inline int coordinate(const int x[4], int k) {
  int v = x[0];
  LQCD_UNROLL
  for (int j = 1; j < 4; ++j)
    if (j == k) v = x[j];
  return v;
}
LQCD_HOST_DEVICE inline void set_coordinate(int x[4], int k, int v) {
  LQCD_UNROLL
  for (int j = 0; j < 4; ++j)
    if (j == k) x[j] = v;
}

struct FaceSites {
  int mu;
  int a, b, c;  // the other three directions, in increasing order
  int na_half, nb;
  std::int64_t half;  // face sites of one parity: V / (2 n_mu)
  int full;           // the output holds both parities
  int parity;         // the output's parity when not full

  static FaceSites of(const SiteIndexer& idx, int mu, bool full_output, int output_parity) {
    FaceSites f{};
    f.mu = mu;
    int others[3], k = 0;
    for (int nu = 0; nu < 4; ++nu)
      if (nu != mu) others[k++] = nu;
    f.a = others[0];
    f.b = others[1];
    f.c = others[2];
    f.na_half = idx.n[f.a] / 2;
    f.nb = idx.n[f.b];
    f.half = std::int64_t(idx.n[f.a]) * idx.n[f.b] * idx.n[f.c] / 2;
    f.full = full_output ? 1 : 0;
    f.parity = output_parity;
    return f;
  }
  LQCD_HOST_DEVICE std::int64_t count() const { return (full ? 2 : 1) * half; }
  // The output parity that face site f serves.
  LQCD_HOST_DEVICE int output_parity(std::int64_t f) const { return full ? int(f / half) : parity; }
  // Coordinates of face site f in layer x_mu = layer, as a site of parity site_parity.
  LQCD_HOST_DEVICE void coords(std::int64_t f, int layer, int site_parity, int x[4]) const {
    const std::int64_t j = f % half;
    const int ja = int(j % na_half);
    const std::int64_t rest = j / na_half;
    const int xb = int(rest % nb), xc = int(rest / nb);
    set_coordinate(x, mu, layer);
    set_coordinate(x, b, xb);
    set_coordinate(x, c, xc);
    set_coordinate(x, a, 2 * ja + ((site_parity + layer + xb + xc) & 1));
  }
};

template <typename T>
LQCD_HOST_DEVICE void store_message(Complex<T>* m, std::int64_t count, std::int64_t f, const HalfSpinor<T>& h) {
  LQCD_UNROLL
  for (int k = 0; k < 6; ++k) m[k * count + f] = h.s[k / 3].c[k % 3];
}
template <typename T>
LQCD_HOST_DEVICE HalfSpinor<T> load_message(const Complex<T>* m, std::int64_t count, std::int64_t f) {
  HalfSpinor<T> h;
  LQCD_UNROLL
  for (int k = 0; k < 6; ++k) h.s[k / 3].c[k % 3] = m[k * count + f];
  return h;
}

// Packs both messages of direction mu from the hopping term's input (thread i: side i / count, face
// site i % count; side 0 the forward face, side 1 the backward face).
template <typename Real, int LinkComponents>
struct FacePackKernel {
  using T = compute_t<Real>;  // messages are in the arithmetic precision (float for Half fields)
  GaugeView<Real, LinkComponents> U;
  SpinorView<Real> in;
  FaceSites face;
  Complex<T>* to_forward;
  Complex<T>* to_backward;
  int dagger;

  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const std::int64_t n = face.count(), f = i % n;
    const int side = int(i / n), mu = face.mu, sign = dagger ? -1 : 1;
    const int p = face.output_parity(f);  // the receiver's output parity; the sites sent have 1 - p
    int x[4] = {0, 0, 0, 0};  // every entry is set by coords()
    face.coords(f, side == 0 ? coordinate(U.idx.n, mu) - 1 : 0, 1 - p, x);
    const std::int64_t s = U.idx.lex(x) >> 1;
    const ColorSpinor<T> psi = in.load(1 - p, s);
    if (side == 0)
      store_message(to_forward, n, f, color_adj_multiply(U.load(mu, 1 - p, s), spin_project_half(mu, -sign, psi)));
    else store_message(to_backward, n, f, spin_project_half(mu, sign, psi));
  }
};

// Adds alpha times the hops across the faces of direction mu to the output (thread i: side i /
// count; side 0 the backward hops at x_mu = 0 from the backward neighbour's message, side 1 the
// forward hops at x_mu = n_mu - 1 from the forward neighbour's). The two sides touch different
// sites; directions run one after the other, so corner sites are not updated concurrently.
template <typename Real, int LinkComponents>
struct FaceHopKernel {
  using T = compute_t<Real>;
  GaugeView<Real, LinkComponents> U;
  SpinorView<Real> out;
  FaceSites face;
  const Complex<T>* from_backward;
  const Complex<T>* from_forward;
  FermionBoundary boundary;
  double alpha;
  int dagger;

  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const std::int64_t n = face.count(), f = i % n;
    const int side = int(i / n), mu = face.mu, sign = dagger ? -1 : 1;
    const int p = face.output_parity(f);
    const int nmu = coordinate(U.idx.n, mu), off = coordinate(U.idx.off, mu), gn = coordinate(U.idx.gn, mu);
    int x[4] = {0, 0, 0, 0};  // every entry is set by coords()
    const int layer = side == 0 ? 0 : nmu - 1;
    face.coords(f, layer, p, x);
    const std::int64_t s = U.idx.lex(x) >> 1;
    ColorSpinor<T> r;
    if (side == 0) {
      HalfSpinor<T> h = load_message(from_backward, n, f);
      if (layer + off == 0) h = Complex<T>(conj(boundary.phase[mu])) * h;
      r = spin_reconstruct(mu, -sign, h);
    } else {
      HalfSpinor<T> h = color_multiply(U.load(mu, p, s), load_message(from_forward, n, f));
      if (layer + off == gn - 1) h = Complex<T>(boundary.phase[mu]) * h;
      r = spin_reconstruct(mu, sign, h);
    }
    ColorSpinor<T> v = out.load(p, s);
    v += Complex<T>(T(alpha)) * r;
    out.store(p, s, v);
  }
};

}  // namespace lqcd
