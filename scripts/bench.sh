#!/usr/bin/env bash
# Prints every benchmark (numbers, never pass/fail): the release page's transfer size, and the
# cost of one turn (server time, rows read, bytes to the page) on a 10-turn and a 1,000-turn
# campaign against an instant scripted model.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
"$ROOT/scripts/bench-size.sh"
# The native tests' target dir: the bench shares its dependencies with `make test`'s build.
cargo bench -p server --bench turn_cost --target-dir "$CARGO_TARGET_DIR/native-tests"
