#!/usr/bin/env bash
# Prints the play page's transfer size (wasm + js + css, raw, gzip and brotli as served) of the release
# build, against DESIGN.md's budget of 200 KiB gzip. Builds the release site first.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
"$ROOT/scripts/setup.sh" >/dev/null
cd "$ROOT"
"$ROOT/scripts/build-site.sh"

pkg="$LEPTOS_SITE_ROOT/pkg"
total=0
total_br=0
printf '%-34s %10s %10s %10s\n' file raw gzip brotli
# The release build's names carry a content hash (dicebound.<hash>.wasm).
for path in "$pkg"/*.wasm "$pkg"/*.js "$pkg"/*.css; do
  file=$(basename "$path")
  raw=$(stat -c %s "$path")
  gz=$(stat -c %s "$path.gz")
  br=$(stat -c %s "$path.br")
  total=$((total + gz))
  total_br=$((total_br + br))
  printf '%-34s %10d %10d %10d\n' "$file" "$raw" "$gz" "$br"
done
printf '%-34s %10s %10d %10d  (gzip %d KiB, brotli %d KiB; budget 200 KiB)\n' total "" "$total" "$total_br" "$((total / 1024))" "$((total_br / 1024))"
