#include "fields/spinor_block_field.hpp"

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "fields/spinor_block_kernels.hpp"

namespace lqcd {

template <typename Real>
SpinorBlockField<Real>::SpinorBlockField(const Geometry& geom, Location loc, int rhs, Subset subset)
    : geom_(geom),
      subset_(subset),
      n_(rhs),
      stride_(padded_stride(geom.stored_half_volume(), sizeof(Complex<stored_t<Real>>))),
      data_(std::size_t(stride_) * 12 * std::size_t(rhs > 0 ? rhs : 0) * blocks(), loc),
      norm_(is_fixed_point_v<Real> ? std::size_t(stride_) * std::size_t(rhs > 0 ? rhs : 0) * blocks() : 0, loc) {
  if (rhs < 1) fail("internal: a spinor block field needs at least one right-hand side (got {})", rhs);
}

namespace {

template <typename Real>
void copy_rhs(const SpinorField<Real>& field, const SpinorBlockField<Real>& block, int j, int to_block) {
  if (j < 0 || j >= block.rhs())
    fail("internal: right-hand side {} of a block of {} right-hand sides", j, block.rhs());
  if (field.subset() != block.subset() || field.geometry().volume() != block.geometry().volume() ||
      field.geometry().stored_half_volume() != block.geometry().stored_half_volume())
    fail("internal: pack_rhs / unpack_rhs between fields of different lattices or subsets");
  if (field.location() != block.location())
    fail("internal: pack_rhs / unpack_rhs between fields in different memories");
  for_each(block.location(), field.sites(), RhsCopyKernel<Real>{field.view(), block.view(), j, to_block});
}

}  // namespace

template <typename Real>
void pack_rhs(SpinorBlockField<Real>& block, int j, const SpinorField<Real>& field) {
  copy_rhs(field, block, j, 1);
}
template <typename Real>
void unpack_rhs(SpinorField<Real>& field, const SpinorBlockField<Real>& block, int j) {
  copy_rhs(field, block, j, 0);
}
template <typename Real>
void pack_rhs(SpinorBlockField<Real>& block, std::span<const SpinorField<Real>> fields) {
  if (std::int64_t(fields.size()) != block.rhs())
    fail("internal: {} fields for a block of {} right-hand sides", fields.size(), block.rhs());
  for (std::size_t j = 0; j < fields.size(); ++j) pack_rhs(block, int(j), fields[j]);
}
template <typename Real>
void unpack_rhs(std::span<SpinorField<Real>> fields, const SpinorBlockField<Real>& block) {
  if (std::int64_t(fields.size()) != block.rhs())
    fail("internal: {} fields for a block of {} right-hand sides", fields.size(), block.rhs());
  for (std::size_t j = 0; j < fields.size(); ++j) unpack_rhs(fields[j], block, int(j));
}

#define LQCD_INSTANTIATE_SPINOR_BLOCK(Real)                                                      \
  template class SpinorBlockField<Real>;                                                         \
  template void pack_rhs<Real>(SpinorBlockField<Real>&, int, const SpinorField<Real>&);          \
  template void unpack_rhs<Real>(SpinorField<Real>&, const SpinorBlockField<Real>&, int);        \
  template void pack_rhs<Real>(SpinorBlockField<Real>&, std::span<const SpinorField<Real>>);     \
  template void unpack_rhs<Real>(std::span<SpinorField<Real>>, const SpinorBlockField<Real>&);
LQCD_INSTANTIATE_SPINOR_BLOCK(double)
LQCD_INSTANTIATE_SPINOR_BLOCK(float)
LQCD_INSTANTIATE_SPINOR_BLOCK(Half)

}  // namespace lqcd
