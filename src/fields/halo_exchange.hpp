#pragma once
// Halo exchange: fills the halo layers of a field (Geometry's comment) with the values of the sites
// they stand for, from the neighbouring processes or, where a direction is not split, from this
// process's opposite face. Directions are exchanged one after the other and each message includes the
// halo layers of the directions already done, so edges and corners arrive too (two hops).
//
// Messages go through host memory (pack on the device, copy, MPI, copy back, unpack); a direction
// that is not split never leaves the device. depth <= the geometry's halo depth: the Dirac operators
// need 1, staples and clover leaves 1 (with corners), rectangles 2.

#include "core/geometry.hpp"
#include "math/precision.hpp"
#include "core/memory.hpp"
#include "fields/halo_kernels.hpp"

namespace lqcd {

// Sites in each of the two messages of direction mu (one per side; 0 where mu has no halo): the
// exchange's bytes are 2 x this x (component vectors) x (bytes per component), per direction.
std::int64_t halo_message_sites(const Geometry& g, int mu, int depth);

template <typename T>  // Complex<double>, Complex<float>, or FixedPair / FloatPair (components in pairs)
void exchange_halo(T* data, Location loc, const Geometry& g, const HaloLayout& layout, int depth);

}  // namespace lqcd
