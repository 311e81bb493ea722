#!/usr/bin/env bash
# Runs every test: formatting and lints (clippy, warnings as errors), the release build (server +
# wasm, its size printed), unit and integration
# tests (cargo; the store's on SQLite and on a throwaway PostgreSQL cluster), and the Playwright end-to-end tests in Chromium against that release server on
# a free loopback port.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

# Each step's time is printed as it ends and again at the close, so the command's time on a fresh
# machine (CI allows 90 minutes) can be watched as the game grows.
times=()
step_name="setup (the toolchain, the bundled model, Chromium, PostgreSQL)"
step_start=$SECONDS
step() {
  local took=$((SECONDS - step_start))
  times+=("$(printf '%5ss  %s' "$took" "$step_name")")
  printf '    (%ss)\n' "$took"
  step_name="$*"
  step_start=$SECONDS
  [[ -n $step_name ]] && printf '\n==> %s\n' "$step_name"
  return 0
}
printf '==> %s\n' "$step_name"
"$ROOT/scripts/setup.sh" test
cd "$ROOT"
results=$(mktemp -d)
postgres=$(mktemp -d)
trap '"$ROOT/scripts/postgres.sh" stop "$postgres"; rm -rf "$results" "$postgres"' EXIT

step "formatting (cargo fmt --check)"
cargo fmt --all -- --check

step "lints (cargo clippy, warnings as errors: the server with every target, the browser's wasm)"
cargo clippy -p app -p server --all-targets --target-dir "$CARGO_TARGET_DIR/clippy" -- -D warnings
cargo clippy -p frontend --features hydrate --target wasm32-unknown-unknown \
  --target-dir "$CARGO_TARGET_DIR/clippy" -- -D warnings

step "build the release site that make play serves, and print its transfer size"
"$ROOT/scripts/bench-size.sh"

step "build the client-side-rendered site (trunk build --release, Trunk.toml)"
trunk build --release

step "a throwaway PostgreSQL cluster for the tests that run on both databases"
DICEBOUND_TEST_POSTGRES_URL=$("$ROOT/scripts/postgres.sh" start "$postgres")
export DICEBOUND_TEST_POSTGRES_URL
echo "PostgreSQL on ${DICEBOUND_TEST_POSTGRES_URL#postgres://dicebound@}"

step "unit and integration tests (cargo test)"
# A target dir of its own: `cargo leptos watch` builds dev with other flags (`--cfg
# erase_components`), so sharing one would make the two rebuild each other's dependencies.
# Every build leaves its test binaries and incremental state behind under new names: drop those
# older than a day, so a reused target dir does not grow until the disk is full.
for dir in deps examples incremental; do
  find "$CARGO_TARGET_DIR/native-tests/debug/$dir" -mindepth 1 -maxdepth 1 -mtime +1 \
    \( -type d -o -type f -executable \) -exec rm -rf {} + 2>/dev/null || true
done
cargo test -p app -p server --target-dir "$CARGO_TARGET_DIR/native-tests" 2>&1 | tee "$results/cargo.log"

step "end-to-end tests (Playwright, Chromium)"
free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
E2E_PORT=$(free_port)
E2E_DEPTH_PORT=$(free_port)
E2E_CSR_PORT=$(free_port)
E2E_CSR_GAME_PORT=$(free_port)
E2E_FIGHT_PORT=$(free_port)
E2E_LEDGER_PORT=$(free_port)
E2E_TEETH_PORT=$(free_port)
export E2E_PORT E2E_DEPTH_PORT E2E_CSR_PORT E2E_CSR_GAME_PORT E2E_FIGHT_PORT E2E_LEDGER_PORT E2E_TEETH_PORT
# The end-to-end tests play the release build: exactly what players get.
export DICEBOUND_SERVER_BIN="$CARGO_TARGET_DIR/release/server"
export E2E_DATA_DIR="$results"
(cd end2end && PLAYWRIGHT_JSON_OUTPUT_NAME="$results/e2e.json" npx playwright test --reporter=list,json)
step ""
printf '\nstep times:\n'
printf '%s\n' "${times[@]}"

# One closing line over every runner.
node - "$results/cargo.log" "$results/e2e.json" <<'JS'
const fs = require("fs");
const [cargoLog, e2eJson] = process.argv.slice(-2);
let passed = 0, failed = 0, skipped = 0;
for (const m of fs.readFileSync(cargoLog, "utf8").matchAll(/test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/g)) {
  passed += +m[1]; failed += +m[2]; skipped += +m[3];
}
const stats = JSON.parse(fs.readFileSync(e2eJson, "utf8")).stats;
passed += stats.expected + stats.flaky; failed += stats.unexpected; skipped += stats.skipped;
console.log(`\ntests: ${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
process.exit(failed || skipped ? 1 : 0);
JS
