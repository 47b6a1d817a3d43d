#include "fields/spinor_field.hpp"

#include "core/error.hpp"
#include "fields/global_order.hpp"

namespace lqcd {

void fail_half_halo() {
  fail("internal: half-precision spinor fields have no halo exchange (the Dirac operators exchange their faces "
       "themselves); convert to single or double precision first");
}

SpinorField<double> to_spinor_field(const LexicographicSpinor& global, const Geometry& geom, Location loc) {
  if (std::int64_t(global.size()) != geom.global_volume())
    fail("spinor field: {} sites given for a {} lattice", global.size(), dims_string(geom.global));
  return local_to_spinor_field(geom.distributed() ? local_part(global, geom, 1) : global, geom, loc);
}

SpinorField<double> local_to_spinor_field(const LexicographicSpinor& lex, const Geometry& geom, Location loc) {
  if (std::int64_t(lex.size()) != geom.volume())
    fail("spinor field: {} sites given for a local box {}", lex.size(), dims_string(geom.local));
  SpinorField<double> host(geom, Location::Host);
  const SpinorView<double> v = host.view();
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < geom.volume(); ++i) {
    int x[4];
    v.idx.coords_lex(i, x);
    v.store(SiteIndexer::parity(x), v.idx.cb_index(x), lex[std::size_t(i)]);
  }
  return loc == Location::Host ? std::move(host) : host.clone(loc);
}

LexicographicSpinor to_local_lexicographic(const SpinorField<double>& psi) {
  if (psi.subset() != Subset::Full) fail("internal: to_lexicographic needs a full-lattice spinor field");
  const SpinorField<double> host = psi.clone(Location::Host);
  const SpinorView<double> v = host.view();
  LexicographicSpinor lex(std::size_t(psi.geometry().volume()));
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < psi.geometry().volume(); ++i) {
    int x[4];
    v.idx.coords_lex(i, x);
    lex[std::size_t(i)] = v.load(SiteIndexer::parity(x), v.idx.cb_index(x));
  }
  return lex;
}

LexicographicSpinor to_lexicographic(const SpinorField<double>& psi) {
  return gather_global(to_local_lexicographic(psi), psi.geometry(), 1);
}

}  // namespace lqcd
