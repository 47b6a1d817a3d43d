#pragma once
// Packing and unpacking of the sites of a box (a face slab of the local lattice, or the halo layers it
// fills on the neighbour) for halo exchanges (halo_exchange.hpp). One thread per site of the box; the
// message is component-major (component k of box site i at k * box_sites + i), so consecutive
// threads touch consecutive words on both sides.

#include <cstdint>

#include "core/geometry.hpp"
#include "math/complex.hpp"

namespace lqcd {

// Where the component vectors of a field lie: component c of group g of parity p at
// data + p * parity_pitch + g * group_pitch + c * stride (+ site). A field of one parity stores only
// that parity's block (parity >= 0; parity_pitch unused).
struct HaloLayout {
  std::int64_t stride = 0;
  int groups = 1;
  int components = 12;
  std::int64_t group_pitch = 0;
  std::int64_t parity_pitch = 0;
  int parity = -1;  // -1: both parity blocks
  int vectors() const { return groups * components; }
};

struct HaloBox {
  int lo[4];
  int extent[4];
  LQCD_HOST_DEVICE std::int64_t sites() const {
    return std::int64_t(extent[0]) * extent[1] * extent[2] * extent[3];
  }
  LQCD_HOST_DEVICE void coords(std::int64_t i, int x[4]) const {
    x[0] = lo[0] + int(i % extent[0]);
    i /= extent[0];
    x[1] = lo[1] + int(i % extent[1]);
    i /= extent[1];
    x[2] = lo[2] + int(i % extent[2]);
    x[3] = lo[3] + int(i / extent[2]);
  }
};

// unpack = 0: message <- field at the box's sites; 1: field <- message. Sites of a one-parity field
// whose parity differs are skipped (their message slots are unused).
template <typename T>
struct HaloCopyKernel {
  T* data;
  T* message;
  SiteIndexer idx;
  HaloBox box;
  std::int64_t stride, group_pitch, parity_pitch;
  int groups, components, parity, unpack;

  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    box.coords(i, x);
    const int p = SiteIndexer::parity(x);
    if (parity >= 0 && p != parity) return;
    T* site = data + (parity >= 0 ? 0 : p * parity_pitch) + idx.cb_index(x);
    const std::int64_t n = box.sites();
    for (int g = 0; g < groups; ++g)
      for (int c = 0; c < components; ++c) {
        T* f = site + g * group_pitch + c * stride;
        T* m = message + (std::int64_t(g) * components + c) * n + i;
        if (unpack) *f = *m;
        else *m = *f;
      }
  }
};

}  // namespace lqcd
