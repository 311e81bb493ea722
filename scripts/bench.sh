#!/usr/bin/env bash
# Prints every benchmark (numbers, never pass/fail): the release page's transfer size; the cost
# of one turn (server time, rows read, bytes to the page) on a 10-turn and a 1,000-turn campaign
# against an instant scripted model; and what the model is sent (prompt tokens, request bytes,
# the share of each prompt's front a cache can reuse) over a 300-turn campaign.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
"$ROOT/scripts/bench-size.sh"
# The native tests' target dir: the bench shares its dependencies with `make test`'s build.
cargo bench -p server --bench turn_cost --bench prompt_size --target-dir "$CARGO_TARGET_DIR/native-tests"
