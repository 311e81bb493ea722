#!/usr/bin/env bash
# Prints every benchmark (numbers, never pass/fail): the release page's transfer size; the cost
# of one turn (server time, rows read, bytes to the page) on a 10-turn and a 1,000-turn campaign
# against an instant scripted model; what the model is sent (prompt tokens, request bytes,
# the share of each prompt's front a cache can reuse) over a 300-turn campaign; the server
# process's cold start, resident memory idle and after 20 turns, and a turn over HTTP; and how good a
# game the bundled model plays (concrete actions, dice, voice, grounding, repetition, time).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
"$ROOT/scripts/bench-size.sh"
# The native tests' target dir: the bench shares its dependencies with `make test`'s build.
cargo bench -p server --bench turn_cost --bench prompt_size --bench footprint --target-dir "$CARGO_TARGET_DIR/native-tests"
# The bundled model's game, scored (QUALITY_CAMPAIGNS x QUALITY_TURNS, 5 x 5 by default: ~10 min).
"$ROOT/scripts/setup-llm.sh"
cargo bench -p server --bench gm_quality --target-dir "$CARGO_TARGET_DIR/native-tests"
