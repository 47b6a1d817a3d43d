#!/usr/bin/env bash
# Issue 28's reference run on the GPU machine: Nf = 2 clover, beta = 5.29, c_sw = 1.9192, kappa = 0.13620
# with a Hasenbusch ratio over kappa2 = 0.1320, Omelyan-2 [12, 2, 4], tau = 1, one step of the speed-ups
# at a time. Every variant starts from the same configuration START (a file, or "hot") with the same
# seed, so that the trajectories (before the accept/reject) are the same to the solver tolerance and
# only the time differs. One JSON line per trajectory per variant in OUT/hmcref.jsonl (the variant in
# "variant"), a summary line per variant in OUT/summary.txt.
#   scripts/hmc-reference.sh OUT BIN L START TRAJECTORIES ["VARIANT;VARIANT;..."]
# DEVICE=cpu runs it on the host (a check of the script on a small L); REF_REVERSIBILITY=true integrates each
# trajectory back as well (hmc.reversibility_check). A variant is
# "NAME:precision:forecast[:force_tolerance[:steps[:levels[:reliable_delta[:ENV=VALUE[:multigrid]]]]]]]", default
# "double0:double:0;forecast6:double:6;single6:single:6"; force_tolerance 0 (default) is solver.tolerance;
# steps "12,2,4" (default) are integrator.steps; levels "HEAVY,RATIO,GAUGE" (default "0,1,2") the levels of
# the heavy clover, the Hasenbusch ratio and the gauge action; reliable_delta (default 0.1) solver.reliable_delta;
# REF_KAPPA (default 0.13620) the ratio's light quark; ENV=VALUE an environment variable for the run (e.g.
# LQCD_COMPRESSED_CLOVER=0); REF_PROFILE=1 runs each variant under the CUPTI kernel profiler (OUT/profile_NAME.txt); multigrid "mg" puts the ratio's light force solves on the multigrid, with the
# [multigrid] lines of REF_MULTIGRID (newline-separated TOML, default "coarse_half = true").
set -uo pipefail
out=${1:?OUT}; bin=${2:?BIN}; L=${3:?L}; start=${4:?START}; n=${5:?TRAJECTORIES}
variants=${6:-"double0:double:0;forecast6:double:6;single6:single:6"}
dir=runs/hmcref_$L
mkdir -p "$dir"
IFS=';' read -r -a list <<<"$variants"
for v in "${list[@]}"; do
  IFS=':' read -r name precision forecast force_tolerance steps levels reliable_delta env multigrid <<<"$v"
  IFS=',' read -r heavy_level ratio_level gauge_level <<<"${levels:-0,1,2}"
  cat >"$dir/$name.toml" <<TOML
[lattice]
dims = [$L, $L, $L, $L]
[gauge]
beta = 5.29
[integrator]
type = "omelyan2"
tau = 1.0
steps = [${steps:-12,2,4}]
[hmc]
seed = 529
start = "$start"
thermalization = 0
trajectories = $n
reversibility_check = ${REF_REVERSIBILITY:-false}
[solver]
tolerance = 1e-10
precision = "$precision"
force_tolerance = ${force_tolerance:-0}
reliable_delta = ${reliable_delta:-0.1}
[multigrid]
${REF_MULTIGRID:-coarse_half = true}
[output]
prefix = "$dir/$name"
checkpoint_every = 0
[[monomial]]
type = "gauge"
level = $gauge_level
[[monomial]]
type = "clover"
kappa = 0.1320
csw = 1.9192
forecast = $forecast
level = $heavy_level
[[monomial]]
type = "hasenbusch_ratio"
kappa = ${REF_KAPPA:-0.13620}
kappa2 = 0.1320
csw = 1.9192
forecast = $forecast
level = $ratio_level
multigrid = $([ "${multigrid:-}" = mg ] && echo true || echo false)
TOML
  rm -f "$dir/$name.jsonl" "$dir/$name.log"
  t0=$(date +%s)
  if [ -n "${REF_PROFILE:-}" ]; then
    # REF_PROFILE=1: under the CUPTI kernel profiler (scripts/profiling/kernel-profiler.sh), the kernel table
    # of the whole run in OUT/profile_NAME.txt
    source scripts/profiling/kernel-profiler.sh
    kernel_profiler_build "$out/hmcref.log"
    (if [ -n "${env:-}" ]; then export "${env?}"; fi
     kernel_profiler_run "$out/profile_$name.txt" "$bin" hmc "$dir/$name.toml" --device "${DEVICE:-gpu}" --quiet) >>"$out/hmcref.log" 2>&1
  else
    env ${env:+"$env"} "$bin" hmc "$dir/$name.toml" --device "${DEVICE:-gpu}" --quiet >>"$out/hmcref.log" 2>&1
  fi
  rc=$?
  sed "s/^{/{\"variant\":\"$name\",/" "$dir/$name.jsonl" >>"$out/hmcref.jsonl" 2>/dev/null
  cat "$dir/$name.log" >>"$out/hmcref.log" 2>/dev/null
  echo "hmcref $name: exit $rc in $(( $(date +%s) - t0 )) s; $(grep '^# .* per trajectory' "$dir/$name.log" | tail -1)" |
    tee -a "$out/summary.txt"
done
