#pragma once
// A C interface to lqcd for other languages (Python's lqcd.core through ctypes: python/lqcd/core.py).
// Plain C types only, so that any Python (or Julia, or Fortran) can call it without compiling against
// lqcd; every function returns 0 on success and -1 on failure, with the message in lqcd_last_error().
//
// Arrays are the caller's, contiguous, in lqcd's lexicographic order (x fastest, then y, z, t):
// spinors as [T][Z][Y][X][4 spins][3 colours] complex doubles (interleaved re, im), the gauge field as
// [T][Z][Y][X][4 directions][3][3] complex doubles. Spins in the DeGrand-Rossi basis (docs/design.md).

#include <stddef.h>

extern "C" {

typedef struct lqcd_gauge lqcd_gauge;  // a gauge configuration on the host (device = 0) or the GPU (1)

const char* lqcd_last_error(void);
int lqcd_has_device(void);  // 1 when a CUDA device is usable

// Reads any supported format (detected); checksums and header values verified. dims: x, y, z, t.
int lqcd_gauge_load(const char* path, int device, lqcd_gauge** out, int dims[4]);
void lqcd_gauge_free(lqcd_gauge* u);
// <Re tr U_p>/3 over all plaquettes (1 for the unit field).
int lqcd_gauge_plaquette(const lqcd_gauge* u, double* plaquette);
// A host copy of the links ([T][Z][Y][X][4][3][3] complex).
int lqcd_gauge_links(const lqcd_gauge* u, double* out);
// The field's own storage (no copy; on the device for device = 1): its address and size in bytes, for
// DLPack / __cuda_array_interface__ views. The layout is lqcd's (fields/gauge_view.hpp), not the
// lexicographic one; writing through it changes the field.
int lqcd_gauge_storage(const lqcd_gauge* u, void** data, size_t* bytes, int* on_device);

// The Wilson operator M = 1 - kappa H (hopping form; boundary phases (1, 1, 1, -1): antiperiodic in
// time) applied to a spinor: out = M in.
int lqcd_wilson_apply(const lqcd_gauge* u, double kappa, const double* in, double* out);
// Solves M x = b (even-odd preconditioned CG on the normal equations, double precision) to the relative
// residual `tolerance` of the full operator; iterations (may be NULL) receives the CG iterations.
int lqcd_wilson_solve(const lqcd_gauge* u, double kappa, double tolerance, const double* b, double* x,
                      int* iterations);
}
