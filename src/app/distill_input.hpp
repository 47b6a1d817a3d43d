#pragma once
// The input of lqcd distill: the quark keys it shares with lqcd spectrum (quark_input.hpp; the
// [source] and [sink] keys are not used) and its own [distillation] keys, read and checked without
// running anything.

#include <string>
#include <vector>

#include "app/config.hpp"
#include "app/quark_input.hpp"
#include "gauge/stout_smearing.hpp"
#include "measure/distillation_contractions.hpp"
#include "measure/laplacian_eigenvectors.hpp"

namespace lqcd::app {

std::vector<KeySpec> distill_schema();

struct GevpChannel {
  std::string name;          // the gamma names joined by "+", e.g. "g5+gxgygz"
  std::vector<int> gammas;   // SpinMatrix::basis indices
};

struct DistillInput {
  QuarkInput quark;
  LaplacianEigenParams eigen;
  StoutParams stout;  // 3D stout smearing of the Laplacian's links
  std::vector<int> source_times;
  std::vector<int> gammas;
  std::vector<std::array<int, 3>> momenta;
  std::vector<int> displacements;  // -1 (none), 0..2
  std::vector<GevpChannel> gevp;
  int gevp_t0 = 1;
  std::string eigenvectors_in;     // reuse the eigenvectors of this file (empty: compute)
  bool save_eigenvectors = false;  // write PREFIX.eigvecs.h5

  std::vector<ElementalKind> kinds() const;
  std::vector<DistillationOperator> operators() const;
};

// Validates every key (errors name the input file and the key).
DistillInput read_distill_input(const Config& c);

}  // namespace lqcd::app
