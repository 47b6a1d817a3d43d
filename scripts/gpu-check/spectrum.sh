if has spectrum; then
  # The spectrum examples on the MILC 8^4 beta = 6.0 configuration (and the free twisted-mass one), on
  # the GPU in double and in mixed double/single precision and on the CPU: one JSON summary each.
  : >"$out/spectrum.jsonl"
  mkdir -p runs/gpu-check
  for ex in examples/spectrum_*.toml; do
    for run in "gpu double" "gpu single" "cpu double"; do
      set -- $run
      in=runs/gpu-check/$(basename "$ex" .toml).$1.$2.toml
      sed -e "s|\.\./shared/testdata|.gpu-testdata|" -e "s|^precision = .*||" -e "s|^prefix = \"\(.*\)\"|prefix = \"\1.$1.$2\"|" \
        -e "s|^\[solver\]|[solver]\nprecision = \"$2\"|" "$ex" >"$in"
      start=$(date +%s%N)
      "$bin" spectrum "$in" --device "$1" --json >>"$out/spectrum.jsonl" 2>>"$summary"
      note "spectrum $(basename "$ex" .toml) $1 $2: exit $? in $(( ($(date +%s%N) - start) / 1000000 )) ms"
    done
  done
  tail -q -n 25 runs/spectrum_milc8888/*.gpu.single.log >"$out/spectrum.logtail" 2>/dev/null
fi
