#pragma once
// The field of the three-point tests (tests/measure/*_three_point_test.cpp): a rough SU(3) field with a
// clover quark, antiperiodic in time, solved to 1e-13 so that the comparisons can ask for 1e-10.

#include "dirac/dirac_operator_factory.hpp"
#include "field_test_support.hpp"
#include "measure/propagator.hpp"

namespace lqcd::test {

struct RoughClover {
  Dims dims;
  GaugeField<double> U;
  double kappa = 0.115;
  DiracOperators D;
  PropagatorOptions options;
  explicit RoughClover(const Dims& d) : dims(d), U(rough_gauge(Geometry::single_process(d), Location::Host)) {
    FermionParams f;
    f.action = FermionAction::Clover;
    f.wilson.kappa = kappa;
    f.csw = 1.0;
    f.wilson.boundary.phase[3] = Complex<double>(-1);
    D = make_dirac_operators(U, f);
    options.solver.type = SolverType::BiCGStab;
    options.solver.tolerance = 1e-13;
  }
  PointPropagator point(std::array<int, 4> x) const {
    SourceSpec s;
    s.position = x;
    return compute_propagator(D, true, s, options);
  }
};

}  // namespace lqcd::test
