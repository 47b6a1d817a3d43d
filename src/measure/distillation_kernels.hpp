#pragma once
// Site kernels of distillation (measure/laplacian_eigenvectors, perambulator, distillation_contractions),
// run by lqcd::for_each on host or device.
//
// Colour vectors of one time slice are stored densely, as the columns of a matrix: element (r, v),
// r = 3 * x3 + colour, x3 = x + Lx (y + Ly z) the spatial lexicographic index, is at v * n + r with
// n = 3 Lx Ly Lz. A block of such columns is the matrix V of the GEMMs of distillation.

#include "fields/gauge_view.hpp"
#include "fields/spinor_field.hpp"
#include "math/color_spinor.hpp"

namespace lqcd {

// Spatial coordinates of the slice index x3 and back; t is the slice.
struct SliceIndexer {
  int l[3];
  LQCD_HOST_DEVICE std::int64_t volume() const { return std::int64_t(l[0]) * l[1] * l[2]; }
  LQCD_HOST_DEVICE void coords(std::int64_t x3, int t, int x[4]) const {
    x[0] = int(x3 % l[0]);
    x[1] = int((x3 / l[0]) % l[1]);
    x[2] = int(x3 / (std::int64_t(l[0]) * l[1]));
    x[3] = t;
  }
  LQCD_HOST_DEVICE std::int64_t index(const int x[4]) const { return x[0] + l[0] * (x[1] + std::int64_t(l[1]) * x[2]); }
};

LQCD_HOST_DEVICE inline ColorVector<double> load_colour(const Complex<double>* column, std::int64_t x3) {
  ColorVector<double> v;
  for (int c = 0; c < 3; ++c) v.c[c] = column[3 * x3 + c];
  return v;
}

// The two parallel transports to x along spatial direction k of the column f on x's slice: U_k(x) f(x + k)
// and U_k(x - k)^dag f(x - k), the terms of the Laplacian and of the symmetric covariant derivative.
struct CovariantHops {
  ColorVector<double> forward, backward;
};
LQCD_HOST_DEVICE inline CovariantHops covariant_hops(const GaugeView<double>& U, const SliceIndexer& slice,
                                                    const Complex<double>* f, const int x[4], int k) {
  int y[4] = {x[0], x[1], x[2], x[3]};
  U.idx.shift(y, k, +1);
  int z[4] = {x[0], x[1], x[2], x[3]};
  U.idx.shift(z, k, -1);
  return {U.link(x, k) * load_colour(f, slice.index(y)), adj_mul(U.link(z, k), load_colour(f, slice.index(z)))};
}

// out = a (-Laplacian in) + b in + c extra, on the time slice t, for `columns` columns of length n,
// where the gauge-covariant 3D Laplacian is
//   (Laplacian f)(x) = sum_{k=1..3} [ U_k(x) f(x + k) + U_k(x - k)^dag f(x - k) - 2 f(x) ],
// periodic in space. -Laplacian is Hermitian with its spectrum in [0, 12]. extra may be nullptr (c
// unused). One thread per (site, column); the Chebyshev recursion of laplacian_eigenvectors.cpp is one
// call per step. FLOPs per site and column: 6 x 66 (SU(3) x vector) + 6 x 6 (sums) + 4 x 6 = 456.
struct NegativeLaplacianKernel {
  GaugeView<double> U;  // whole time slices on this process (check_whole_time_slices); t local
  SliceIndexer slice;
  int t;
  const Complex<double>* in;
  const Complex<double>* extra;
  Complex<double>* out;
  double a, b, c;

  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const std::int64_t v3 = slice.volume();
    const std::int64_t column = i / v3, x3 = i % v3;
    const Complex<double>* f = in + column * 3 * v3;
    int x[4];
    slice.coords(x3, t, x);
    ColorVector<double> hop{};
    LQCD_UNROLL
    for (int k = 0; k < 3; ++k) {
      const CovariantHops h = covariant_hops(U, slice, f, x, k);
      hop += h.forward;
      hop += h.backward;
    }
    const ColorVector<double> here = load_colour(f, x3);
    Complex<double>* o = out + column * 3 * v3 + 3 * x3;
    for (int cc = 0; cc < 3; ++cc) {
      Complex<double> r = a * (6.0 * here.c[cc] - hop.c[cc]) + b * here.c[cc];
      if (extra) r += c * extra[column * 3 * v3 + 3 * x3 + cc];
      o[cc] = r;
    }
  }
};

// out(x) = e^{-i p.x} (D f)(x) on slice t, columns as above: D = 1 (direction < 0) or the symmetric
// gauge-covariant derivative (D_k f)(x) = [U_k(x) f(x + k) - U_k(x - k)^dag f(x - k)] / 2; p.x =
// 2 pi sum_k p_k x_k / L_k with global coordinates (single process).
struct DisplacedPhaseKernel {
  GaugeView<double> U;
  SliceIndexer slice;
  int t;
  int direction;  // -1 or 0..2
  double p[3];    // 2 pi p_k / L_k
  const Complex<double>* in;
  Complex<double>* out;

  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const std::int64_t v3 = slice.volume();
    const std::int64_t column = i / v3, x3 = i % v3;
    const Complex<double>* f = in + column * 3 * v3;
    int x[4];
    slice.coords(x3, t, x);
    ColorVector<double> d;
    if (direction < 0) {
      d = load_colour(f, x3);
    } else {
      const CovariantHops h = covariant_hops(U, slice, f, x, direction);
      d = Complex<double>(0.5) * (h.forward - h.backward);
    }
    const double phase = -(p[0] * x[0] + p[1] * x[1] + p[2] * x[2]);
    const Complex<double> e(cos(phase), sin(phase));
    for (int cc = 0; cc < 3; ++cc) out[column * 3 * v3 + 3 * x3 + cc] = e * d.c[cc];
  }
};

// The distillation source of spin `spin`: psi(x)_{spin, c} = column(3 x3 + c) on local slice t0, zero
// elsewhere (all sites of a full field; t0 = -1 and no column: the source slice is on another process).
struct SliceSourceKernel {
  SpinorView<double> psi;
  SliceIndexer slice;
  int t0, spin;
  const Complex<double>* column;

  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = psi.parity_of(i);
    const std::int64_t s = psi.cb_of(i);
    int x[4];
    psi.idx.coords(p, s, x);
    ColorSpinor<double> v{};
    if (x[3] == t0) {
      const std::int64_t x3 = slice.index(x);
      for (int c = 0; c < 3; ++c) v.s[spin].c[c] = column[3 * x3 + c];
    }
    psi.store(p, s, v);
  }
};

// Every time slice of a full spinor field into dense columns: out[((t * 4 + spin) * columns + column) * n
// + 3 x3 + c] = psi(x3, t)_{spin, c}, n = 3 Lx Ly Lz.
struct SliceGatherKernel {
  SpinorView<double> psi;
  SliceIndexer slice;
  int columns, column;
  Complex<double>* out;

  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = psi.parity_of(i);
    const std::int64_t s = psi.cb_of(i);
    int x[4];
    psi.idx.coords(p, s, x);
    const ColorSpinor<double> v = psi.load(p, s);
    const std::int64_t n = 3 * slice.volume(), x3 = slice.index(x);
    for (int spin = 0; spin < 4; ++spin)
      for (int c = 0; c < 3; ++c)
        out[((std::int64_t(x[3]) * 4 + spin) * columns + column) * n + 3 * x3 + c] = v.s[spin].c[c];
  }
};

// One operator's spin structure for SpinTraceKernel: its elemental kind; Gamma's non-zero column and
// weight per row (times s5 of the row), and Gbar's (times s5 of the column).
struct OperatorSpin {
  int kind;
  int sink_col[4], source_col[4];
  Complex<double> sink_weight[4], source_weight[4];
};

// C_ij(dt) = - sum_{alpha, beta} sink_weight_i[alpha] source_weight_j[beta]
//            G(t)[(alpha, source_col_j[beta], kind_j), (kind_i, sink_col_i[alpha], beta)],
// t = (t0 + dt) mod T, G(t) the 16 nk x 16 nk block traces of distillation_contractions.cpp (column-major),
// held for the local slices t_begin .. t_begin + local_nt - 1; zero for the other t (summed over the
// processes of a time-split lattice afterwards).
struct SpinTraceKernel {
  const Complex<double>* G;
  const OperatorSpin* ops;
  Complex<double>* out;  // [dt][i][j], dt = 0 .. T - 1
  int nops, kinds, T, t0, t_begin, local_nt;
  std::int64_t m;  // 16 nk, G(t)'s size

  LQCD_HOST_DEVICE void operator()(std::int64_t n) const {
    const int j = int(n % nops), i = int((n / nops) % nops), dt = int(n / (std::int64_t(nops) * nops));
    const int t = (t0 + dt) % T - t_begin;
    if (t < 0 || t >= local_nt) {
      out[n] = Complex<double>(0.0);
      return;
    }
    const OperatorSpin& a = ops[i];
    const OperatorSpin& b = ops[j];
    const Complex<double>* g = G + std::int64_t(t) * m * m;
    Complex<double> sum(0.0);
    for (int alpha = 0; alpha < 4; ++alpha)
      for (int beta = 0; beta < 4; ++beta) {
        const std::int64_t row = (alpha * 4 + b.source_col[beta]) * kinds + b.kind;
        const std::int64_t col = a.kind * 16 + a.sink_col[alpha] * 4 + beta;
        sum += a.sink_weight[alpha] * b.source_weight[beta] * g[row + col * m];
      }
    out[n] = -sum;
  }
};

}  // namespace lqcd
