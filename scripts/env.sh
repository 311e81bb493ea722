# Sourced by the other scripts: where Dicebound's tools and build output live.
#
# DICEBOUND_TOOLS   tools installed by setup.sh (cargo-leptos, wasm-bindgen, wasm-opt)
# DICEBOUND_LLM_HOME the bundled local model: llama-server and model.gguf (setup-llm.sh)
# CARGO_TARGET_DIR  cargo's build output, kept outside the checkout so fresh clones build incrementally

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE_HOME=${XDG_CACHE_HOME:-$HOME/.cache}
export DICEBOUND_TOOLS=${DICEBOUND_TOOLS:-$CACHE_HOME/dicebound/tools}
export DICEBOUND_LLM_HOME=${DICEBOUND_LLM_HOME:-$DICEBOUND_TOOLS/llm}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$CACHE_HOME/dicebound-target}
export PATH="$DICEBOUND_TOOLS/bin:$DICEBOUND_TOOLS/wasm-opt/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# The site cargo-leptos builds (site-root in Cargo.toml, relative to the workspace).
export LEPTOS_SITE_ROOT=${LEPTOS_SITE_ROOT:-$ROOT/target/site}
# Server function URLs carry a hash of this key (by default, of the crate's folder): a fixed key
# keeps the browser's and the server's URLs equal when checkouts in other folders share the
# cargo target dir (CI's fresh clones do).
export SERVER_FN_OVERRIDE_KEY=dicebound
