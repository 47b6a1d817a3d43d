#include "fields/lexicographic_gauge.hpp"

#include "core/error.hpp"

namespace lqcd {

LexicographicGauge tile(const LexicographicGauge& g, const Dims& copies) {
  Dims big{};
  for (int mu = 0; mu < 4; ++mu) {
    if (copies[mu] < 1) fail("tile: copies {} must be at least 1 in every direction", dims_string(copies));
    big[mu] = g.dims[mu] * copies[mu];
  }
  LexicographicGauge t(big);
  const SiteIndexer small = SiteIndexer::from(Geometry{g.dims, g.dims, {}});
  const SiteIndexer large = SiteIndexer::from(Geometry{big, big, {}});
  for (std::int64_t i = 0; i < t.volume(); ++i) {
    int x[4];
    large.coords_lex(i, x);
    for (int mu = 0; mu < 4; ++mu) x[mu] %= g.dims[mu];
    const std::int64_t j = small.lex(x);
    for (int mu = 0; mu < 4; ++mu) t(i, mu) = g(j, mu);
  }
  return t;
}

}  // namespace lqcd
