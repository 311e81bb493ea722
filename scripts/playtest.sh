#!/usr/bin/env bash
# The playtest bench: five scripted personas play a seeded campaign each against the model the
# usual settings choose (DICEBOUND_LLM, or an endpoint: DICEBOUND_LLM_BASE_URL, DICEBOUND_LLM_MODEL,
# OPENAI_API_KEY / DICEBOUND_LLM_API_KEY, also from a .env file), the bundled model when none is
# set. Prints a table per persona and one per model (this model beside earlier reports), and saves
# this model's report as JSON in target/playtest. PLAYTEST_TURNS (4), PLAYTEST_SEED and
# PLAYTEST_PRICE_PROMPT / _CACHED / _COMPLETION (dollars per million tokens) tune it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
if [[ -f .env ]]; then
  # The environment wins over the file, as for the server.
  while IFS='=' read -r name value; do
    value=${value%\"}
    value=${value#\"}
    [[ $name =~ ^[A-Z_][A-Z0-9_]*$ ]] && [[ -z ${!name:-} ]] && export "$name=$value"
  done < .env
fi
if [[ -z ${DICEBOUND_LLM:-}${DICEBOUND_LLM_BASE_URL:-}${DICEBOUND_LLM_API_KEY:-}${OPENAI_API_KEY:-} ]]; then
  export DICEBOUND_LLM=bundled
fi
# cargo runs the bench in server/: a scenario or cassette path is taken from the checkout.
if [[ ${DICEBOUND_LLM:-} =~ ^(scripted|record|replay):([^/].*)$ ]]; then
  export DICEBOUND_LLM="${BASH_REMATCH[1]}:$ROOT/${BASH_REMATCH[2]}"
fi
if [[ ${DICEBOUND_LLM:-} == bundled || ${DICEBOUND_LLM:-} == local ]]; then
  "$ROOT/scripts/setup-llm.sh"
fi
export PLAYTEST_REPORTS=${PLAYTEST_REPORTS:-$ROOT/target/playtest}
# The native tests' target dir: the bench shares its dependencies with `make test`'s build.
cargo bench -p server --bench playtest --target-dir "$CARGO_TARGET_DIR/native-tests"
