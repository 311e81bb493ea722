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
#
# The wasm's standard library is built from the toolchain's own source (rust-src, installed by
# setup.sh) for size, and a panic in the browser stops the wasm at once instead of formatting its
# message (`-Cpanic=immediate-abort`): no panic message, location or formatting code in the page
# (issue 50: the whole wasm 435,663 -> 407,722 B brotli). Both are unstable options of the pinned
# stable toolchain, allowed by RUSTC_BOOTSTRAP (as the Linux kernel builds its Rust) for the wasm's
# build only: the server is built apart, since cargo rebuilds everything when that variable
# changes, and cargo-leptos adds the wasm target's RUSTFLAGS variable to the wasm's flags only. The
# development builds are untouched.
RUSTC_BOOTSTRAP=1 \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort" \
  cargo leptos build --release --split --frontend-only \
  --lib-cargo-args=-Zbuild-std=std,panic_abort --lib-cargo-args=-Zbuild-std-features=optimize_for_size
cargo leptos build --release --split --server-only
for file in "$LEPTOS_SITE_ROOT"/pkg/*.wasm "$LEPTOS_SITE_ROOT"/pkg/*.js "$LEPTOS_SITE_ROOT"/pkg/*.css; do
  gzip -9 -k -f -n "$file"
  # Brotli at its best quality, with Node's own zlib (Node is already a tool of the build).
  node -e 'const fs = require("fs"), zlib = require("zlib"); const [file] = process.argv.slice(1);
    fs.writeFileSync(file + ".br", zlib.brotliCompressSync(fs.readFileSync(file),
      { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));' "$file"
done
