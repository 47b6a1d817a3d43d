#!/usr/bin/env bash
# Issue 49: the nucleon's axial charge g_A on a quenched beta = 6.0 ensemble, for comparison with the
# published quenched values at that pion mass (docs/validation.md, "g_A on a quenched ensemble").
#   - ensemble: N configurations of 16^3 x 32, Wilson gauge action, by scripts/quenched-ensemble.sh
#     (200 thermalisation sweeps, SEP sweeps apart, each one heatbath + 4 overrelaxation steps);
#   - quarks: clover, c_sw = 1.769 (the non-perturbative value at beta = 6.0), kappa = KAPPA (default 0.1333,
#     one of QCDSF's quenched masses at this beta), Wuppertal-smeared source (APE-smeared links), point sink;
#   - lqcd spectrum's nucleon three-point functions at the source-sink separations TS (the axial current
#     gamma_z gamma_5 on u and on d, z-polarised; the local and conserved vector currents unpolarised);
#   - lqcd.analysis three-point: R(tau) = C3(tau) / C2(t_s) of u - d, its plateau times Z_A.
# lqcd's propagators are in hopping form (M = 1 - kappa H = 2 kappa (D + m0)): a local current's ratio carries
# one propagator more than the two-point function, hence 1/(2 kappa); the conserved current's definition
# has it built in. The local ratios are therefore scaled by 2 kappa (and g_A by Z_A).
# Z_A = 0.7924 is ALPHA's non-perturbative value at g0^2 = 1 (Luscher, Sint, Sommer, Wittig, Nucl. Phys.
# B491 (1997) 344: Z_A = (1 - 0.8496 g0^2 + 0.0610 g0^4) / (1 - 0.7332 g0^2)).
#   [N=32] [SEP=20] [KAPPA=0.1333] [TS="10"] [L=16] [LT=32] [DEVICE=gpu] [PYTHON=python3] [BUDGET=seconds]
#     scripts/nucleon-axial-charge.sh OUT [BIN]
set -uo pipefail
out=${1:?OUT}
bin=${2:-build-gpu/lqcd}
n=${N:-32}
kappa=${KAPPA:-0.1333}
ts_list=${TS:-10}
python=${PYTHON:-python3}
cd "$(dirname "$0")/.."
L=${L:-16}
device=${DEVICE:-gpu}
dir=runs/axial_charge_b6.0_${L}x${LT:=32}
LT=$LT SEP=${SEP:-20} DEVICE=$device bash scripts/quenched-ensemble.sh "$dir/ensemble" "$bin" 6.0 "$L" "$n" "$out/axial_charge.log" |
  tee -a "$out/summary.txt"
sink_times=$(echo "$ts_list" | sed 's/ /, /g')
two_kappa=$(python3 -c "print(2 * $kappa)")
z_a=$(python3 -c "print(0.7924 * 2 * $kappa)")
start=$(date +%s)
for cfg in "$dir"/ensemble/q.*.ildg; do
  # BUDGET (seconds): the configurations measured by then are analysed, the rest skipped
  if [ -n "${BUDGET:-}" ] && (( $(date +%s) - start > BUDGET )); then
    echo "budget of $BUDGET s spent: the remaining configurations are not measured" | tee -a "$out/summary.txt"
    break
  fi
  name=$(basename "$cfg" .ildg)
  cat >"$dir/$name.toml" <<TOML
[gauge]
config = "$cfg"
[fermion]
action = "clover"
kappa = $kappa
csw = 1.769
[solver]
type = "bicgstab"
precision = "single"
tolerance = 1e-9
[source]
type = "point"
position = [0, 0, 0, 0]
smearing = "gaussian"
smearing_kappa = 0.21
smearing_iterations = 50
ape_alpha = 0.5
ape_iterations = 20
[spectrum]
three_point_sink_times = [$sink_times]
three_point_hadrons = ["nucleon"]
three_point_currents = ["gxgygt", "gt", "conserved_vector"]
[output]
prefix = "$dir/spectrum_k$kappa/$name"
TOML
  "$bin" spectrum "$dir/$name.toml" --device "$device" --quiet >>"$out/axial_charge.log" 2>&1 ||
    echo "spectrum $name: exit $?" | tee -a "$out/summary.txt"
done
echo "spectrum on $(ls "$dir"/spectrum_k$kappa/q.*.h5 2>/dev/null | wc -l) configurations in $(( $(date +%s) - start )) s" |
  tee -a "$out/summary.txt"
files=("$dir"/spectrum_k$kappa/q.*.h5)
# lqcd.analysis reads the correlator files through the C API library: the one built beside BIN (build-gpu/ where
# the binaries were carried: pack it with them, scripts/gpu-carry.sh pack lqcd liblqcd_capi.so).
lib="$(cd "$(dirname "$bin")" && pwd)/liblqcd_capi.so"
[ -z "${LQCD_LIBRARY:-}" ] && [ -f "$lib" ] && export LQCD_LIBRARY="$lib"
for ts in $ts_list; do
  lo=2
  hi=$((ts - 2))
  {
    echo "== t_s = $ts, kappa = $kappa: g_A (u - d, axial current gamma_z gamma_5, z-polarised), Z_A = 0.7924, times 2 kappa"
    PYTHONPATH=python "$python" -m lqcd.analysis three-point "${files[@]}" --sink-time "$ts" --two-point nucleon_Pplus \
      --current "nucleon_3pt_polarised_z_u_gxgygt_ts$ts-nucleon_3pt_polarised_z_d_gxgygt_ts$ts" --plateau "$lo,$hi" --scale "$z_a"
    echo "== t_s = $ts: g_V from the conserved current (u - d, unpolarised; 1 exactly on each configuration)"
    PYTHONPATH=python "$python" -m lqcd.analysis three-point "${files[@]}" --sink-time "$ts" --two-point nucleon_Pplus \
      --current "nucleon_3pt_unpolarised_u_conserved_vector_ts$ts-nucleon_3pt_unpolarised_d_conserved_vector_ts$ts" --plateau "$lo,$hi"
    echo "== t_s = $ts: g_V from the local current gamma_t (u - d, unpolarised), times 2 kappa: 1/Z_V"
    PYTHONPATH=python "$python" -m lqcd.analysis three-point "${files[@]}" --sink-time "$ts" --two-point nucleon_Pplus \
      --current "nucleon_3pt_unpolarised_u_gt_ts$ts-nucleon_3pt_unpolarised_d_gt_ts$ts" --plateau "$lo,$hi" \
      --scale "$two_kappa"
  } >>"$out/axial_charge.txt" 2>&1
done
PYTHONPATH=python "$python" -m lqcd.analysis correlators "${files[@]}" --name g5_g5 >>"$out/axial_charge.txt" 2>&1
PYTHONPATH=python "$python" -m lqcd.analysis correlators "${files[@]}" --name nucleon >>"$out/axial_charge.txt" 2>&1
grep -E "^==|plateau" "$out/axial_charge.txt" | tee -a "$out/summary.txt"
