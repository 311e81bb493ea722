#!/usr/bin/env bash
# Builds the release site (server + wasm) and compresses its assets once (`.gz` beside each
# wasm, js and css file), which the server sends to browsers that accept gzip.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
cargo leptos build --release
for file in "$LEPTOS_SITE_ROOT"/pkg/*.wasm "$LEPTOS_SITE_ROOT"/pkg/*.js "$LEPTOS_SITE_ROOT"/pkg/*.css; do
  gzip -9 -k -f -n "$file"
done
