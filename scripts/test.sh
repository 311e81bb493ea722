#!/usr/bin/env bash
# Runs every test: formatting and lints (clippy, warnings as errors), the release build (server +
# wasm, its size printed), unit and integration tests (cargo; the store's on SQLite and on a
# throwaway PostgreSQL cluster), and beside them the Playwright end-to-end tests in Chromium
# against that release server on free loopback ports.
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
# The release server is built incrementally here (the same code at the same optimisation level):
# after a change to the game only what changed is compiled again, not the whole crate (about
# 2.5 minutes on 2 cores). The wasm keeps its whole-program optimisation, which cannot be
# incremental. `make play` builds the server as players get it, from scratch.
export CARGO_PROFILE_RELEASE_INCREMENTAL=true CARGO_PROFILE_WASM_RELEASE_INCREMENTAL=false
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

step "a throwaway PostgreSQL cluster for the tests that run on both databases"
DICEBOUND_TEST_POSTGRES_URL=$("$ROOT/scripts/postgres.sh" start "$postgres")
export DICEBOUND_TEST_POSTGRES_URL
echo "PostgreSQL on ${DICEBOUND_TEST_POSTGRES_URL#postgres://dicebound@}"

step "the tests: cargo test here; beside it, the client-side-rendered site (trunk) then Playwright"
# Two lanes, one per core: the longest cargo test (a whole fight against the bundled model) keeps
# one core busy, the site's build and the browser tests the other. The second lane's output is
# printed when both are done.
browser_lane() {
  local start=$SECONDS
  echo "==> build the client-side-rendered site (trunk build --release, Trunk.toml)"
  trunk build --release || return 1
  lane_times+=("$(printf '%5ss    trunk build (beside cargo test)' $((SECONDS - start)))")
  start=$SECONDS
  echo "==> end-to-end tests (Playwright, Chromium)"
  end_to_end || return 1
  lane_times+=("$(printf '%5ss    Playwright (beside cargo test)' $((SECONDS - start)))")
  printf '%s\n' "${lane_times[@]}" >"$results/lane-times"
}
end_to_end() {
  free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
  E2E_PORT=$(free_port)
  E2E_DEPTH_PORT=$(free_port)
  E2E_CSR_PORT=$(free_port)
  E2E_CSR_GAME_PORT=$(free_port)
  E2E_FIGHT_PORT=$(free_port)
  E2E_LEDGER_PORT=$(free_port)
  E2E_TEETH_PORT=$(free_port)
  export E2E_PORT E2E_DEPTH_PORT E2E_CSR_PORT E2E_CSR_GAME_PORT E2E_FIGHT_PORT E2E_LEDGER_PORT E2E_TEETH_PORT
  # The end-to-end tests play the release build players get (built incrementally, see above).
  export DICEBOUND_SERVER_BIN="$CARGO_TARGET_DIR/release/server"
  export E2E_DATA_DIR="$results"
  (cd end2end && PLAYWRIGHT_JSON_OUTPUT_NAME="$results/e2e.json" npx playwright test --reporter=list,json)
}
lane_times=()
browser_lane >"$results/browser.log" 2>&1 &
browser_pid=$!

echo "==> unit and integration tests (cargo test)"
# A target dir of its own: `cargo leptos watch` builds dev with other flags (`--cfg
# erase_components`), so sharing one would make the two rebuild each other's dependencies.
# Every build leaves its test binaries and incremental state behind under new names: drop those
# older than a day, so a reused target dir does not grow until the disk is full.
for dir in deps examples incremental; do
  find "$CARGO_TARGET_DIR/native-tests/debug/$dir" -mindepth 1 -maxdepth 1 -mtime +1 \
    \( -type d -o -type f -executable \) -exec rm -rf {} + 2>/dev/null || true
done
cargo_status=0
cargo test -p app -p server --target-dir "$CARGO_TARGET_DIR/native-tests" 2>&1 | tee "$results/cargo.log" \
  || cargo_status=$?
printf '    (cargo test: %ss)\n' $((SECONDS - step_start))
browser_status=0
wait "$browser_pid" || browser_status=$?
printf '\n'
cat "$results/browser.log"
step ""
printf '\nstep times:\n'
printf '%s\n' "${times[@]}"
[[ ! -f $results/lane-times ]] || cat "$results/lane-times"
[[ $cargo_status -eq 0 ]] || echo "cargo test failed (exit $cargo_status)"
[[ $browser_status -eq 0 ]] || echo "the client-side-rendered build or Playwright failed (exit $browser_status)"

# One closing line over every runner.
node - "$results/cargo.log" "$results/e2e.json" <<'JS'
const fs = require("fs");
const [cargoLog, e2eJson] = process.argv.slice(-2);
let passed = 0, failed = 0, skipped = 0;
for (const m of fs.readFileSync(cargoLog, "utf8").matchAll(/test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/g)) {
  passed += +m[1]; failed += +m[2]; skipped += +m[3];
}
if (fs.existsSync(e2eJson)) {
  const stats = JSON.parse(fs.readFileSync(e2eJson, "utf8")).stats;
  passed += stats.expected + stats.flaky; failed += stats.unexpected; skipped += stats.skipped;
} else {
  failed += 1; // Playwright never ran: the client-side-rendered build failed before it.
}
console.log(`\ntests: ${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
process.exit(failed || skipped ? 1 : 0);
JS
[[ $cargo_status -eq 0 && $browser_status -eq 0 ]]
