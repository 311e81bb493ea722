#!/usr/bin/env bash
# Builds the release site and serves the game on http://127.0.0.1:3000 (LEPTOS_SITE_ADDR changes it).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
"$ROOT/scripts/setup.sh"
cd "$ROOT"
"$ROOT/scripts/build-site.sh"
export LEPTOS_ENV=PROD
export LEPTOS_SITE_ADDR=${LEPTOS_SITE_ADDR:-127.0.0.1:3000}
echo "Dicebound: open http://$LEPTOS_SITE_ADDR (Ctrl-C stops it)"
exec "$CARGO_TARGET_DIR/release/server"
