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

step "build caches: incremental ones untouched for a day removed"
# Each change of flags or features leaves a crate's incremental cache behind; over weeks they
# fill the disk (tens of GB). Those not used for a day go; cargo makes them again when needed.
find "$CARGO_TARGET_DIR" -maxdepth 4 -type d -name incremental -print0 2>/dev/null |
  while IFS= read -r -d '' cache; do
    # A cache removed meanwhile (another build's clean-up) is nothing to stop for.
    find "$cache" -mindepth 1 -maxdepth 1 -type d -mtime +0 -exec rm -rf {} + 2>/dev/null || true
  done
du -sh "$CARGO_TARGET_DIR" 2>/dev/null || true

step "formatting (cargo fmt --check)"
cargo fmt --all -- --check

step "a throwaway PostgreSQL cluster for the tests that run on both databases"
DICEBOUND_TEST_POSTGRES_URL=$("$ROOT/scripts/postgres.sh" start "$postgres")
export DICEBOUND_TEST_POSTGRES_URL
echo "PostgreSQL on ${DICEBOUND_TEST_POSTGRES_URL#postgres://dicebound@}"

step "two lanes, one per core: lints then cargo test here; the sites then Playwright beside them"
# Each lane keeps its own cargo target dir, so neither waits for the other's lock. The browser
# lane's output is printed when both are done; each part's time is in the table at the end.
timed() { # label command...: runs the command and notes how long it took
  local label=$1 start=$SECONDS
  shift
  printf '\n==> %s\n' "$label"
  "$@" || return
  printf '%5ss    %s\n' $((SECONDS - start)) "$label" >>"$results/lane-times"
}
browser_lane() {
  timed "build the release site that make play serves, and print its transfer size" \
    "$ROOT/scripts/bench-size.sh" &&
    timed "build the client-side-rendered site (trunk build --release, Trunk.toml)" \
      trunk build --release &&
    timed "end-to-end tests (Playwright, Chromium)" end_to_end &&
    timed "the development build hydrates (cargo leptos build, what cargo leptos watch builds; Playwright)" \
      dev_hydrates
}
free_port() { free_ports 1; }
# $1 free loopback ports, all different: each is held open until all are found (ports looked
# for one at a time can come back the same, and two servers then ask for one port).
free_ports() {
  node -e '
    const net = require("net");
    const servers = Array.from({ length: Number(process.argv[1]) }, () => net.createServer());
    Promise.all(servers.map((s) => new Promise((ok) => s.listen(0, "127.0.0.1", ok)))).then(() => {
      console.log(servers.map((s) => s.address().port).join(" "));
      servers.forEach((s) => s.close());
    });' "$1"
}
end_to_end() {
  read -r E2E_PORT E2E_DEPTH_PORT E2E_CSR_PORT E2E_CSR_GAME_PORT E2E_FIGHT_PORT E2E_LEDGER_PORT \
    E2E_TEETH_PORT E2E_APPROVAL_PORT E2E_VOICE_PORT E2E_SETTINGS_PORT E2E_FAKE_MODEL_PORT \
    E2E_MAGIC_PORT E2E_STORY_PORT E2E_FRIENDS_PORT E2E_REACH_PORT <<<"$(free_ports 15)"
  export E2E_PORT E2E_DEPTH_PORT E2E_CSR_PORT E2E_CSR_GAME_PORT E2E_FIGHT_PORT E2E_LEDGER_PORT E2E_TEETH_PORT \
    E2E_APPROVAL_PORT E2E_VOICE_PORT E2E_SETTINGS_PORT E2E_FAKE_MODEL_PORT E2E_MAGIC_PORT \
    E2E_STORY_PORT E2E_FRIENDS_PORT E2E_REACH_PORT
  # The end-to-end tests play the release build players get (built incrementally, see above).
  export DICEBOUND_SERVER_BIN="$CARGO_TARGET_DIR/release/server"
  export E2E_DATA_DIR="$results"
  (cd end2end && PLAYWRIGHT_JSON_OUTPUT_NAME="$results/e2e.json" npx playwright test --reporter=list,json)
}
dev_hydrates() {
  # The README's `cargo leptos watch` builds as `cargo leptos build` does: debug, its wasm not
  # split (the lazily loaded parts come with the rest, app/build.rs). cargo-leptos empties its
  # site root before building, so this build gets a site of its own: the release site in
  # target/site stays as `make play`, the benches and the tests above use it.
  local site="$results/dev-site"
  LEPTOS_SITE_ROOT="$site" cargo leptos build
  (cd end2end && LEPTOS_SITE_ROOT="$site" DICEBOUND_SERVER_BIN="$CARGO_TARGET_DIR/debug/server" \
    E2E_DEV_PORT=$(free_port) E2E_DATA_DIR="$results" PLAYWRIGHT_JSON_OUTPUT_NAME="$results/e2e-dev.json" \
    npx playwright test --config playwright.dev.config.ts --reporter=list,json)
}
lints() {
  cargo clippy -p app -p playtest -p server --all-targets --target-dir "$CARGO_TARGET_DIR/clippy" -- -D warnings &&
    cargo clippy -p frontend --features hydrate --target wasm32-unknown-unknown \
      --target-dir "$CARGO_TARGET_DIR/clippy" -- -D warnings
}
unit_and_integration() {
  # A target dir of its own: `cargo leptos watch` builds dev with other flags (`--cfg
  # erase_components`), so sharing one would make the two rebuild each other's dependencies.
  # Every build leaves its test binaries and incremental state behind under new names: drop
  # those older than a day, so a reused target dir does not grow until the disk is full.
  for dir in deps examples incremental; do
    find "$CARGO_TARGET_DIR/native-tests/debug/$dir" -mindepth 1 -maxdepth 1 -mtime +1 \
      \( -type d -o -type f -executable \) -exec rm -rf {} + 2>/dev/null || true
  done
  # Every test thread, and every tokio worker a test starts without a size of its own, gets the
  # stack the server's own threads have (server::startup::THREAD_STACK, 16 MiB): a debug build's
  # play page and turn futures outgrow the default 2 MiB (a test once died of a stack overflow).
  RUST_MIN_STACK=16777216 \
    cargo test -p app -p playtest -p server --target-dir "$CARGO_TARGET_DIR/native-tests" 2>&1 | tee "$results/cargo.log"
}
browser_lane >"$results/browser.log" 2>&1 &
browser_pid=$!
native_status=0
timed "lints (cargo clippy, warnings as errors: the server with every target, the browser's wasm)" lints &&
  timed "unit and integration tests (cargo test)" unit_and_integration || native_status=$?
browser_status=0
wait "$browser_pid" || browser_status=$?
cat "$results/browser.log"
step ""
printf '\nstep times:\n'
printf '%s\n' "${times[@]}"
printf 'in the lanes:\n'
[[ ! -f $results/lane-times ]] || cat "$results/lane-times"
[[ $native_status -eq 0 ]] || echo "the lints or cargo test failed (exit $native_status)"
[[ $browser_status -eq 0 ]] || echo "a site's build or Playwright failed (exit $browser_status)"

# One closing line over every runner.
node - "$results/cargo.log" "$results/e2e.json" "$results/e2e-dev.json" <<'JS'
const fs = require("fs");
const [cargoLog, ...e2eJsons] = process.argv.slice(-3);
let passed = 0, failed = 0, skipped = 0;
if (fs.existsSync(cargoLog)) {
  for (const m of fs.readFileSync(cargoLog, "utf8").matchAll(/test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/g)) {
    passed += +m[1]; failed += +m[2]; skipped += +m[3];
  }
} else {
  failed += 1; // cargo test never ran: the lints failed before it.
}
for (const e2eJson of e2eJsons) {
  if (fs.existsSync(e2eJson)) {
    const stats = JSON.parse(fs.readFileSync(e2eJson, "utf8")).stats;
    passed += stats.expected + stats.flaky; failed += stats.unexpected; skipped += stats.skipped;
  } else {
    failed += 1; // Playwright never ran: a site's build (or the run before it) failed.
  }
}
console.log(`\ntests: ${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
process.exit(failed || skipped ? 1 : 0);
JS
[[ $native_status -eq 0 && $browser_status -eq 0 ]]
