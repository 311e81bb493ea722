#!/usr/bin/env bash
# Prints the play page's transfer size (wasm + js + css, raw and as served gzip) of the release
# build, against DESIGN.md's budget of 200 KiB gzip. Builds the release site first.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
"$ROOT/scripts/setup.sh" >/dev/null
cd "$ROOT"
"$ROOT/scripts/build-site.sh"

pkg="$LEPTOS_SITE_ROOT/pkg"
total=0
printf '%-18s %10s %10s\n' file raw gzip
for file in dicebound.wasm dicebound.js dicebound.css; do
  raw=$(stat -c %s "$pkg/$file")
  gz=$(stat -c %s "$pkg/$file.gz")
  total=$((total + gz))
  printf '%-18s %10d %10d\n' "$file" "$raw" "$gz"
done
printf '%-18s %10s %10d  (%d KiB; budget 200 KiB)\n' "total gzip" "" "$total" "$((total / 1024))"
