env_sweep() {
  local file=$1 variable=$2 dims=$3 precisions=$4 tiles=$5 caches
  shift 5
  caches=$(mktemp -d)
  for pr in $precisions; do
    IFS=: read -r p r <<<"$pr"
    for tile in $tiles; do
      if [ $tile = default ]; then unset $variable; else export $variable=$tile; fi
      LQCD_TUNE_CACHE="$caches/$variable.$tile.tsv" "$bin" bench dslash --dims $dims --device gpu --precision $p \
        --reconstruct $r "$@" --json 2>>"$summary" | sed "s/^{/{\"forced\":\"$variable=$tile\",/" >>"$file"
    done
  done
  unset $variable
  rm -rf "$caches"
}
