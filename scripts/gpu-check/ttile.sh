if has ttile; then
  # The multi-RHS hopping term's t-tiled visiting order (SiteIndexer::tiled_site): 12 sources at 32^4
  # with the tile forced to 1 (storage order) .. 32 slices (LQCD_MULTI_RHS_T_TILE), then the default choice
  # (TILES and PRECISIONS, as precision:reconstruct, narrow the sweep).
  : >"$out/ttile.jsonl"
  env_sweep "$out/ttile.jsonl" LQCD_MULTI_RHS_T_TILE 32,32,32,32 "${PRECISIONS:-single:12 single:18 double:12 half:12}" \
    "${TILES:-1 2 4 8 16 32 default}" --rhs 12 --repetitions 50
  note "t-tile benchmarks: $(wc -l <"$out/ttile.jsonl") results"
fi
