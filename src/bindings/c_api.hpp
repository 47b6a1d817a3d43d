#pragma once
// A C interface to lqcd for other languages (Python's lqcd.core through ctypes: python/lqcd/core.py).
// Plain C types only, so that any Python (or Julia, or Fortran) can call it without compiling against
// lqcd; every function returns 0 on success and -1 on failure, with the message in lqcd_last_error().
//
// Quark actions and solvers are chosen by TOML text with the keys of lqcd propagator's [fermion],
// [solver] and [multigrid] tables (e.g. "[fermion]\naction = 'clover'\nkappa = 0.137\ncsw = 1.0\n"),
// so that every operator and solver of the command line is reachable, checked the same way.
//
// Arrays are the caller's, contiguous, in lqcd's lexicographic order (x fastest, then y, z, t):
// spinors as [T][Z][Y][X][4 spins][3 colours] complex doubles (interleaved re, im), the gauge field as
// [T][Z][Y][X][4 directions][3][3] complex doubles. Spins in the DeGrand-Rossi basis (docs/design.md).

#include <stddef.h>

extern "C" {
// The interface is what liblqcd_capi.so exports; the library is compiled with hidden visibility and a
// version script (src/bindings/c_api.map) so that nothing else is.
#pragma GCC visibility push(default)

typedef struct lqcd_gauge lqcd_gauge;  // a gauge configuration on the host (device = 0) or the GPU (1)
typedef struct lqcd_hmc lqcd_hmc;      // a Hybrid Monte Carlo set up from an lqcd hmc input

const char* lqcd_last_error(void);
int lqcd_has_device(void);  // 1 when a CUDA device is usable

// Reads any supported format (detected); checksums and header values verified. dims: x, y, z, t.
int lqcd_gauge_load(const char* path, int device, lqcd_gauge** out, int dims[4]);
void lqcd_gauge_free(lqcd_gauge* u);
// The unit field (all links 1) of dims x, y, z, t.
int lqcd_gauge_unit(const int dims[4], int device, lqcd_gauge** out);
// A field from the caller's links ([T][Z][Y][X][4][3][3] complex), which must be SU(3) to 1e-10.
int lqcd_gauge_from_links(const double* links, const int dims[4], int device, lqcd_gauge** out);
// A copy of u (e.g. before an update in place).
int lqcd_gauge_copy(const lqcd_gauge* u, lqcd_gauge** out);
// Projects every link to SU(3) (in place), e.g. links read from 32-bit storage before a 64-bit save.
int lqcd_gauge_reunitarize(lqcd_gauge* u);
// Writes u as format "ildg" (SciDAC checksums), "nersc" or "openqcd", with 32- or 64-bit numbers (0: 64;
// openqcd: 64 only); an existing file is replaced only when overwrite is 1. A 64-bit file needs links
// SU(3) to 1e-10 (every 64-bit reader checks it): links read from 32-bit storage are refused with a
// message to project them first (lqcd_gauge_reunitarize).
int lqcd_gauge_save(const lqcd_gauge* u, const char* path, const char* format, int precision_bits, int overwrite);
// <Re tr U_p>/3 over all plaquettes (1 for the unit field).
int lqcd_gauge_plaquette(const lqcd_gauge* u, double* plaquette);
// The observables of lqcd measure, normalised to 1 for the unit field: out[0..6] = plaquette, spatial
// plaquette, temporal plaquette, rectangle, link trace, Re and Im of the Polyakov loop.
int lqcd_gauge_observables(const lqcd_gauge* u, double out[7]);
// A smeared copy: method "ape" (parameter alpha), "stout" (rho) or "hyp" (parameter unused: alphas
// 0.75, 0.6, 0.3); spatial = 1 smears only the spatial links (3D; HYP: two levels).
int lqcd_gauge_smear(const lqcd_gauge* u, const char* method, int steps, double parameter, int spatial,
                     lqcd_gauge** out);
// The gradient flow of u in place (action "wilson", "symanzik" or "zeuthen"; fixed step epsilon to
// t_max, measured every `every` steps from t = 0): up to max_rows rows of 5 numbers, t/a^2, E from the
// plaquette, E from the clover, t^2 E (clover), Q (clover); *rows receives the number measured.
int lqcd_gauge_flow(lqcd_gauge* u, const char* action, double epsilon, double t_max, int every, double* out,
                    int max_rows, int* rows);
// Quenched updates of u in place, as lqcd heatbath does them: per sweep one Cabibbo-Marinari heatbath
// sweep (random numbers keyed by seed and the sweep number first_sweep, first_sweep + 1, ...) and
// `overrelaxation` overrelaxation sweeps; action "wilson", "symanzik", "iwasaki" or "dbw2".
int lqcd_gauge_heatbath(lqcd_gauge* u, const char* action, double beta, int sweeps, int overrelaxation,
                        unsigned long long seed, unsigned first_sweep);
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
// The HMC of an lqcd hmc input given as TOML text ([gauge], [integrator], [[monomial]], [solver],
// [multigrid], [fermion_smearing], hmc.seed; the lattice, start and output keys are not used), checked as
// lqcd hmc checks it.
int lqcd_hmc_new(const char* toml, lqcd_hmc** out);
void lqcd_hmc_free(lqcd_hmc* h);
// Trajectory number `trajectory` (it keys the momenta, pseudofermions and the accept/reject draw, as in
// lqcd hmc) from u, in place (u is the new or the old configuration on return); metropolis = 0 keeps the
// new one always. out: dH, min(1, exp(-dH)), accepted (1 or 0), seconds.
int lqcd_hmc_trajectory(lqcd_hmc* h, lqcd_gauge* u, unsigned trajectory, int metropolis, double out[4]);
// Any quark action of [fermion] (toml: see above): out = M in, M the full operator in hopping form.
int lqcd_dirac_apply(const lqcd_gauge* u, const char* toml, const double* in, double* out);
// M x = b with the solver of [solver] (and [multigrid]); iterations and residual (the full operator's
// ||b - M x|| / ||b||) may be NULL.
int lqcd_dirac_solve(const lqcd_gauge* u, const char* toml, const double* b, double* x, int* iterations,
                     double* residual);

// The analysis lqcd itself does, for Python's lqcd.analysis (one implementation for both):
// effective masses of c[0..n-1] into m[0..n-2]: kind "log" (log c(t)/c(t+1)) or "cosh" (T the full time
// extent, c its first n slices, e.g. folded); NaN where undefined (measure/effective_mass.hpp).
int lqcd_effective_mass(const double* c, int n, int T, const char* kind, double* m);
// The GEVP of the correlator matrices c[T][n][n] (complex, (re, im) pairs) at reference time t0: the
// principal correlators lambda[T][n] and effective energies energy[T-1][n], ground state first
// (measure/gevp.hpp).
int lqcd_gevp(const double* c, int T, int n, int t0, double* lambda, double* energy);
// t0/a^2 and w0/a where the curve t2E[0..n-1] at flow times t[0..n-1] crosses `reference` (NaN where it
// does not; gauge/gradient_flow.hpp).
int lqcd_flow_scales(const double* t, const double* t2E, int n, double reference, double* t0, double* w0);
#pragma GCC visibility pop
}
