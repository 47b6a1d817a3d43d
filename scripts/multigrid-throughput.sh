#!/usr/bin/env bash
# Issue 46's measurements on the GPU machine, after `scripts/gpu-check.sh OUT build`:
#   bash scripts/multigrid-throughput.sh OUT [parts...]
# parts (default: tests rhs12 tiles):
#   tests   the multi-RHS coarse and multigrid tests on the device (OUT/mgtest.log)
#   rhs12   32^4 beta = 6.0 clover kappa = 0.1352: setup + 12 sources solved together, MG_REPS runs (default 1;
#           scripts/multigrid-scan.sh with MG_RHS=12; OUT/mgscan.jsonl, summary by scripts/mgscan_summary.py)
#   tiles   the same configuration, one source, once per tile of right-hand sides of the block coarse
#           kernels (LQCD_COARSE_RHS_TILE = each of MG_TILES, default 1 4 8 12 16): the
#           coarse_schur_block12_* and coarse_operator_block12_* fields of each line
#   stall   12 sources with the coarse solves' iteration cap raised and other settings (MG_STALL_VARIANTS, ';'-separated)
#   single  one source, 3 repetitions, per setting of MG_SINGLE_VARIANTS (';'-separated)
#   s48     48^4 kappa = 0.1348 (and MG_48_KAPPAS before it), one source, MG_REPS (3) repetitions with MG_SETTINGS:
#           setup + 12 = seconds_setup + 12 seconds_per_solve (12 sources together do not fit one H100 at 48^4)
#   mma     12 sources together with the coarse passes on the tensor cores (LQCD_COARSE_MMA=1) and without,
#           MG_REPS (3) each, into OUT/mma1 and OUT/mma0 (scripts/mgscan_summary.py on each mgscan.jsonl)
#   sap     the same with the Schwarz smoother's fused launches taking 4, 2 and 1 sources (LQCD_SCHWARZ_RHS,
#           the values in MG_SAP_RHS), into OUT/sap4, OUT/sap2, OUT/sap1
#   sweep   the same with the smoother's colour-sweep kernel and without (LQCD_SCHWARZ_SWEEP=1, 0: the block-MR
#           kernel and the residual pass), into OUT/sweep1, OUT/sweep0
#   profile 12 sources together under the CUPTI kernel profiler (scripts/profiling/cupti_kernel_profile.cpp):
#           where the GPU time of the block solve goes, kernel by kernel, and how long the GPU sits idle;
#           with the coarse passes on the CUDA cores and on the tensor cores, and the second level's D_c from
#           16-bit blocks (MG_PROFILE_VARIANTS, MMA:FULL pairs, default "0:0 1:0 1:1"). MG_PROFILE_RHS (12): the
#           sources; 1 profiles single solves (MG_REPS of them, the HMC's case). MG_PROFILE_KAPPA (0.1352).
#           The bench marks its block solves (cudaProfilerStart/Stop), so the setup stays outside the tables
#           (OUT/profile_mmaM_fullF.txt); a plain run before each profiled one: both JSON lines in OUT/profile.jsonl
#   ncu     Nsight Compute in the 12-source block solve: the Schwarz colour sweep and the second level's D_c
#           (OUT/ncu.txt; MG_NCU_TIMEOUT seconds each, default 150)
# MG_SETTINGS: multigrid settings for every run (default: coarse_half=true outer_restart=16).
set -uo pipefail
out=${1:?OUT}
shift
parts=${*:-tests rhs12 tiles}
has() { [[ " $parts " == *" $1 "* ]]; }
cd "$(dirname "$0")/.."
bin=${MG_BIN:-build-gpu/lqcd}  # MG_BIN: another lqcd (e.g. a baseline build carried beside it)
read -r -a settings <<<"${MG_SETTINGS:-coarse_half=true outer_restart=16}"
if has tests; then
  (cd build-gpu && timeout -k 5 300 ctest -R "CoarseBlock|CoarseRhsTile|CoarseDeflation|CoarseHopMma|CoarseDirect|TransferBlock|CoarseOperator|Multigrid|FlexibleGcr|SchwarzSmoother" \
    -j 4 --timeout 240) >"$out/mgtest.log" 2>&1
  echo "mgtest: exit $?: $(grep -E 'tests passed|tests failed' "$out/mgtest.log")" | tee -a "$out/summary.txt"
fi
if has rhs12; then
  MG_RHS=12 MG_REPS=${MG_REPS:-1} MG_SKIP_KRYLOV=1 MG_TIMEOUT=${MG_TIMEOUT:-240} \
    bash scripts/multigrid-scan.sh "$out" "$bin" 32 "0.1352" "${settings[@]}"
  echo "rhs12: $(python3 scripts/mgscan_summary.py "$out/mgscan.jsonl" 2>&1 | tail -2)" | tee -a "$out/summary.txt"
fi
if has tiles; then
  for tile in ${MG_TILES:-1 4 8 12 16}; do
    LQCD_COARSE_RHS_TILE=$tile MG_REPS=3 MG_SKIP_KRYLOV=1 MG_TIMEOUT=90 \
      bash scripts/multigrid-scan.sh "$out" "$bin" 32 "0.1352" "${settings[@]}"
    echo "tile $tile done" >>"$out/summary.txt"
  done
fi
if has stall; then
  MG_RHS=12 MG_REPS=1 MG_SKIP_KRYLOV=1 MG_TIMEOUT=${MG_TIMEOUT:-150} \
    MG_VARIANTS="${MG_STALL_VARIANTS:-coarse_half=true outer_restart=16 coarse_max_iterations=200}" \
    bash scripts/multigrid-scan.sh "$out" "$bin" 32 "0.1352"
fi
if has single; then
  MG_RHS=1 MG_REPS=3 MG_SKIP_KRYLOV=1 MG_TIMEOUT=${MG_TIMEOUT:-90} \
    MG_VARIANTS="${MG_SINGLE_VARIANTS:-coarse_half=true outer_restart=16}" \
    bash scripts/multigrid-scan.sh "$out" "$bin" 32 "${MG_KAPPAS:-0.1352}"
fi
if has s48; then
  MG_RHS=1 MG_REPS=${MG_REPS:-3} MG_SKIP_KRYLOV=1 MG_TIMEOUT=${MG_TIMEOUT:-300} \
    bash scripts/multigrid-scan.sh "$out" "$bin" 48 "${MG_48_KAPPAS:-0.1348}" "${settings[@]}"
  echo "s48: $(python3 scripts/mgscan_summary.py "$out/mgscan.jsonl" 2>&1 | tail -2)" | tee -a "$out/summary.txt"
fi
# ab NAME VARIABLE "VALUES": 12 sources together, MG_REPS (3) runs for each value of VARIABLE, into OUT/NAMEvalue.
ab() {
  for value in $3; do
    mkdir -p "$out/$1$value"
    env "$2=$value" MG_RHS=12 MG_REPS=${MG_REPS:-3} MG_SKIP_KRYLOV=1 MG_TIMEOUT=${MG_TIMEOUT:-200} \
      bash scripts/multigrid-scan.sh "$out/$1$value" "$bin" 32 "0.1352" "${settings[@]}"
    echo "$1 $value: $(python3 scripts/mgscan_summary.py "$out/$1$value/mgscan.jsonl" 2>&1 | tail -2)" | tee -a "$out/summary.txt"
  done
}
if has mma; then ab mma LQCD_COARSE_MMA "1 0"; fi
if has sap; then ab sap LQCD_SCHWARZ_RHS "${MG_SAP_RHS:-4 2 1}"; fi
if has sweep; then ab sweep LQCD_SCHWARZ_SWEEP "1 0"; fi
if has profile; then
  source scripts/profiling/kernel-profiler.sh
  kernel_profiler_build "$out/profile.log"
  echo "profiler build: exit $?" | tee -a "$out/summary.txt"
  # the 32^4 field of multigrid-scan.sh (its heatbath where none is there yet; " ": no kappa to scan)
  ls runs/mgscan_32/wilson.*.ildg >/dev/null 2>&1 || MG_SKIP_KRYLOV=1 bash scripts/multigrid-scan.sh "$out" "$bin" 32 " "
  cfg=$(ls runs/mgscan_32/wilson.*.ildg | tail -1)
  run=("$bin" bench solver --dims 32,32,32,32 --device gpu --config "$cfg" --repetitions "${MG_REPS:-1}" --tolerance 1e-10 --json
    --action clover --csw 1.769 --kappa "${MG_PROFILE_KAPPA:-0.1352}" --precision single --solver multigrid --rhs "${MG_PROFILE_RHS:-12}")
  for s in "${settings[@]}"; do run+=(--multigrid "$s"); done
  # MMA:FULL: LQCD_COARSE_MMA and LQCD_COARSE_HALF_FULL (the second level's D_c from 16-bit blocks);
  # MG_PROFILE_SETUP=1: the setup is the marked window instead of the block solves
  for v in ${MG_PROFILE_VARIANTS:-0:0 1:0 1:1}; do
    mma=${v%%:*} full=${v##*:}
    [[ ${MG_PROFILE_PLAIN:-1} == 1 ]] &&  # MG_PROFILE_PLAIN=0: no plain run
      LQCD_COARSE_MMA=$mma LQCD_COARSE_HALF_FULL=$full timeout -k 5 120 "${run[@]}" >>"$out/profile.jsonl" 2>>"$out/profile.log"
    LQCD_PROFILE_SETUP=${MG_PROFILE_SETUP:-0} LQCD_COARSE_MMA=$mma LQCD_COARSE_HALF_FULL=$full \
      kernel_profiler_run "$out/profile_mma${mma}_full$full.txt" timeout -k 5 180 "${run[@]}" >>"$out/profile.jsonl" 2>>"$out/profile.log"
    echo "profile mma=$mma full=$full: exit $?; $(head -1 "$out/profile_mma${mma}_full$full.txt" 2>/dev/null)" |
      tee -a "$out/summary.txt"
  done
fi
if has ncu; then
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  cfg=$(ls runs/mgscan_32/wilson.*.ildg | tail -1)
  # skip, name: in the 12-source block solve, the Schwarz colour sweep (schwarz_colour_sweep.hpp) and the
  # second level's D_c on the block of 12 (the operator of the K-cycle's
  # MR steps and GCR; the even-odd passes serve two-level solves only).
  # The clocks are left alone (--clock-control none: the device library's METHOD page); the block solve
  # only (--profile-from-start off: the bench marks it).
  # MG_NCU_KERNELS: ';'-separated "skip regex" pairs instead of these two
  IFS=';' read -r -a kernels <<<"${MG_NCU_KERNELS:-0 schwarz_colour_sweep_kernel<float, \(int\)2>;20 CoarseApplyBlockKernel<float}"
  for k in "${kernels[@]}"; do
    LQCD_COARSE_RHS_TILE=12 timeout -k 5 "${MG_NCU_TIMEOUT:-150}" "$ncu" --clock-control none --profile-from-start off --kernel-name-base demangled \
      --kernel-name "regex:${k#* }" --launch-skip "${k%% *}" --launch-count 2 --section SpeedOfLight --section Occupancy \
      --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats \
      "$bin" bench solver --dims 32,32,32,32 --device gpu --config "$cfg" --repetitions 1 --tolerance 1e-10 \
      --action clover --csw 1.769 --kappa 0.1352 --precision single --solver multigrid --rhs 12 \
      --multigrid coarse_half=true --multigrid outer_restart=16 >>"$out/ncu.txt" 2>&1
    echo "ncu [$k]: exit $?" | tee -a "$out/summary.txt"
  done
fi
