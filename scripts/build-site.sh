#!/usr/bin/env bash
# Builds the release site (server + wasm) and compresses its assets once (`.br` and `.gz` beside
# each wasm, js and css file), which the server sends to browsers that accept brotli or gzip.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
# Hashed file names change with every build: start from an empty folder so only this build's are there.
rm -rf "${LEPTOS_SITE_ROOT:?}/pkg"
# `--split`: the parts loaded on first use (the settings page, the drawers) are wasm chunks of their own
# (app/build.rs makes them split points only in a wasm built with `--split`).
cargo leptos build --release --split
for file in "$LEPTOS_SITE_ROOT"/pkg/*.wasm "$LEPTOS_SITE_ROOT"/pkg/*.js "$LEPTOS_SITE_ROOT"/pkg/*.css; do
  gzip -9 -k -f -n "$file"
  # Brotli at its best quality, with Node's own zlib (Node is already a tool of the build).
  node -e 'const fs = require("fs"), zlib = require("zlib"); const [file] = process.argv.slice(1);
    fs.writeFileSync(file + ".br", zlib.brotliCompressSync(fs.readFileSync(file),
      { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));' "$file"
done
