#!/usr/bin/env bash
# Prints the release build's files (wasm and its split chunks, js, css: raw, gzip and brotli as
# served) and their total. Builds the release site first. What each page's first visit fetches, and
# each chunk fetched on first use, is measured in Chromium by end2end/bench/page-weight.mjs.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
"$ROOT/scripts/setup.sh" >/dev/null
cd "$ROOT"
"$ROOT/scripts/build-site.sh"

pkg="$LEPTOS_SITE_ROOT/pkg"
total=0
total_br=0
# What a first visit to the home or the play page fetches: the main wasm, its js, the css and the
# chunk loader (the chunks come on first use; end2end/bench/page-weight.mjs measures it in Chromium).
first_br=0
printf '%-70s %10s %10s %10s\n' file raw gzip brotli
# The release build's names carry a content hash (dicebound.<hash>.wasm).
for path in "$pkg"/*.wasm "$pkg"/*.js "$pkg"/*.css; do
  file=$(basename "$path")
  raw=$(stat -c %s "$path")
  gz=$(stat -c %s "$path.gz")
  br=$(stat -c %s "$path.br")
  total=$((total + gz))
  total_br=$((total_br + br))
  case $file in dicebound.* | __wasm_split.*) first_br=$((first_br + br)) ;; esac
  printf '%-70s %10d %10d %10d\n' "$file" "$raw" "$gz" "$br"
done
printf '%-70s %10s %10d %10d  (gzip %d KiB, brotli %d KiB; every file, first visit or not)\n' total "" "$total" "$total_br" "$((total / 1024))" "$((total_br / 1024))"
printf 'first visit to the home or the play page: %d bytes brotli = %d KiB (budgets: home 200 KiB, play 250 KiB)\n' "$first_br" "$((first_br / 1024))"
