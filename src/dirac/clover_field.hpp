#pragma once
// The clover (Sheikholeslami-Wohlert) site term of the Wilson-clover and twisted-clover operators in
// hopping form, per site
//   A(x) = 1 + 2 kappa c_sw (i/4) sum_{mu,nu} sigma_{mu nu} F_{mu nu}(x) + 2 i kappa mu gamma_5,
// i.e. 2 kappa times the mass-form site term 4 + m0 + c_sw (i/4) sigma.F + i mu gamma_5
// (B. Sheikholeslami, R. Wohlert, Nucl. Phys. B 259 (1985) 572; DESIGN.md conventions), stored as
// the Hermitian chiral blocks H_0, H_1 of its mu = 0 part and the Hermitian K_b from which its
// inverse follows (clover_kernels.hpp has the formulas and the layout). Lives where the gauge field
// lives.
//
// CloverField<double> is computed from the links (compute() rebuilds it, on the host or the device);
// CloverField<float> is the single-precision copy of a double one (blocks and inverses computed in
// double, then rounded), for the single-precision operators.

#include <type_traits>

#include "dirac/clover_kernels.hpp"
#include "dirac/quark_time_boundary.hpp"
#include "fields/gauge_field.hpp"
#include "fields/spinor_field.hpp"

namespace lqcd {

template <typename Real>
class CloverField {
 public:
  // Computes the field from U (double precision only). Keeps a reference to U (no copy): U must
  // outlive the field. trace_kept: MILC's field strength (clover_hermitian_blocks). boundary: open
  // boundaries in time (dirac/quark_time_boundary.hpp: the identity on the boundary slices, the c_F term
  // next to them).
  CloverField(const GaugeField<double>& U, double kappa, double csw, double mu = 0.0, bool trace_kept = false,
              const QuarkTimeBoundary& boundary = {})
    requires std::is_same_v<Real, double>;
  // The single-precision copy of a double-precision field (same parameters, rounded entries).
  explicit CloverField(const CloverField<double>& c)
    requires std::is_same_v<Real, float>;

  CloverField(CloverField&&) noexcept = default;
  CloverField(const CloverField&) = delete;
  CloverField& operator=(const CloverField&) = delete;
  CloverField& operator=(CloverField&&) = delete;

  // Rebuilds A and A^{-1} from the current links (after U changed).
  void compute()
    requires std::is_same_v<Real, double>;
  // The single-precision copy made again, in place, from c (of the same lattice and parameters, e.g.
  // after its links changed): whatever refers to this field sees the new entries.
  void assign(const CloverField<double>& c)
    requires std::is_same_v<Real, float>;

  double kappa() const { return kappa_; }
  double csw() const { return csw_; }
  double mu() const { return mu_; }
  bool trace_kept() const { return trace_kept_; }
  const QuarkTimeBoundary& time_boundary() const { return boundary_; }
  const Geometry& geometry() const { return geom_; }
  Location location() const { return data_.location(); }
  std::size_t bytes() const { return data_.bytes(); }
  std::int64_t stride() const { return stride_; }
  CloverView<Real> view() const {
    return CloverView<Real>{data_.data(), stride_, geom_.half_volume(), 2.0 * kappa_ * mu_};
  }

  // Diagnostics over the sites of one parity (0, 1) or of both (-1): sum_x log |det A(x)|, the
  // smallest LDL pivot of the Hermitian blocks (> 0: all positive definite), non-positive blocks.
  CloverStats stats(int parity = -1) const
    requires std::is_same_v<Real, double>;
  double log_det(int parity = -1) const
    requires std::is_same_v<Real, double>
  {
    return stats(parity).log_det;
  }

  // out = A in (A^dag in with dagger) on the sites out holds (full lattice or one parity; in must
  // hold the same sites; in may be out).
  void apply(SpinorField<Real>& out, const SpinorField<Real>& in, bool dagger = false) const;
  // out = A^{-1} in ((A^dag)^{-1} in with dagger), likewise.
  void apply_inverse(SpinorField<Real>& out, const SpinorField<Real>& in, bool dagger = false) const;

 private:
  void run_site(SpinorField<Real>& out, const SpinorField<Real>& in, int inverse, int dagger) const;

  const GaugeField<double>* U_;  // double: the links it is computed from; float: none
  Geometry geom_;
  double kappa_, csw_, mu_;
  bool trace_kept_;
  QuarkTimeBoundary boundary_;
  std::int64_t stride_;
  Buffer<Complex<Real>> data_;
};

}  // namespace lqcd
