#!/usr/bin/env bash
# Prints every benchmark (numbers, never pass/fail): the release build's files and what each
# page's first visit fetches (against the budgets: home 200 KiB, play 250 KiB); the cost
# of one turn (server time, rows read, bytes to the page) on a 10-turn and a 1,000-turn campaign
# against an instant scripted model, on SQLite and on PostgreSQL (a throwaway cluster); what the
# model is sent (prompt tokens, request bytes,
# the share of each prompt's front a cache can reuse) over a 300-turn campaign; what cheap
# requests cost (a long word's tokens, a turn after one, a ledger's answer); the rules' recall
# on a 1,000-turn campaign (latency per move, the index's size); the server
# process's cold start, resident memory idle and after 20 turns, a turn over HTTP and many games
# at once, against a fake OpenAI-compatible model on loopback; the most players the server holds
# as they play at their own pace (the crowd: one process on SQLite, two on PostgreSQL); in Chromium, the time from a click
# to the first narrative text; and how good a
# game the bundled model plays (concrete actions, dice, voice, grounding, repetition, time).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
"$ROOT/scripts/setup.sh" test
cd "$ROOT"
"$ROOT/scripts/bench-size.sh"
# A throwaway PostgreSQL cluster: a turn's cost is measured on both databases.
postgres=$(mktemp -d)
trap '"$ROOT/scripts/postgres.sh" stop "$postgres"; rm -rf "$postgres"' EXIT
DICEBOUND_BENCH_POSTGRES_URL=$("$ROOT/scripts/postgres.sh" start "$postgres")
export DICEBOUND_BENCH_POSTGRES_URL
# The native tests' target dir: the bench shares its dependencies with `make test`'s build.
cargo bench -p server --bench turn_cost --bench prompt_size --bench cheap_requests --bench recall --bench footprint --bench crowd --bench round_cost --target-dir "$CARGO_TARGET_DIR/native-tests"
# In Chromium: what each page's first visit fetches (and each chunk on first use), then the time
# from a click to the first narrative text, against the release server.
DICEBOUND_SERVER_BIN="$CARGO_TARGET_DIR/release/server" node "$ROOT/end2end/bench/page-weight.mjs"
DICEBOUND_SERVER_BIN="$CARGO_TARGET_DIR/release/server" node "$ROOT/end2end/bench/first-text.mjs"
# The bundled model's game, scored (QUALITY_CAMPAIGNS x QUALITY_TURNS, 5 x 5 by default: ~10 min).
"$ROOT/scripts/setup-llm.sh"
cargo bench -p server --bench gm_quality --target-dir "$CARGO_TARGET_DIR/native-tests"
