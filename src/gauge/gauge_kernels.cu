// Device instantiations of the gauge layer's site kernels (the algorithms live in the .cpp files).
#include "core/exec_cuda.cuh"
#include "gauge/ape_smearing_kernels.hpp"
#include "gauge/gauge_fixing_kernels.hpp"
#include "gauge/gradient_flow_kernels.hpp"
#include "gauge/hyp_smearing_kernels.hpp"
#include "gauge/stout_force_kernels.hpp"
#include "gauge/stout_smearing_kernels.hpp"
#include "gauge/observables_kernels.hpp"
#include "gauge/open_boundary_kernels.hpp"
#include "gauge/update_kernels.hpp"
#include "gauge/wilson_loops_kernels.hpp"

LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<4>, lqcd::GaugeObservablesKernel)
LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<2>, lqcd::PolyakovLoopKernel)
LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<3>, lqcd::OpenBoundaryPlaquetteKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::FreezeBoundaryLinksKernel)
LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::UnitarityStats, lqcd::UnitarityKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::HeatbathKernel<false>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::HeatbathKernel<true>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::OverrelaxationKernel<false>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::OverrelaxationKernel<true>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::HotStartKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::UnitStartKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ReunitarizeKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::RandomGaugeTransformKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ApeSmearKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::StoutSmearKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::StoutLambdaKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::StoutStapleForceKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::FlowStageKernel<false>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::FlowStageKernel<true>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ZeuthenSmoothingKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::FlowUpdateKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::FlowEmbeddedStageKernel)
LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Maximum, lqcd::LinkDistanceKernel)
LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<3>, lqcd::FlowObservablesKernel)
LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<4>, lqcd::FlowSliceKernel)
LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Maximum, lqcd::LastTimeLinkSizeKernel)
LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<1>, lqcd::ImprovedChargeKernel)
LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<8>, lqcd::WilsonLoopKernel)
LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<2>, lqcd::GaugeFixDivergenceKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::FourierAccelerationKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::GaugeFixExponentialKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::GaugeFixRotationKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::GaugeFixOverrelaxationKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::GaugeFixApplyParityKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::HypLevel1Kernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::HypLevel2Kernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::HypLevel3Kernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::PathExtendKernel)
LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<1>, lqcd::ClosedLoopKernel)
