#!/usr/bin/env bash
# Makes a Python virtual environment with hmmlearn 0.3.3 (the peer our HMM is checked against,
# issue 6) in the cache outside the repository. Idempotent and flock'd, since parallel suites and
# the benchmark may call it at once. Prints the venv's python path on stdout; progress on stderr.
set -euo pipefail
CACHE="${MIS_CACHE_DIR:-$HOME/.cache/market-intel}"
VENV="$CACHE/venv"
PY="$VENV/bin/python"
HMMLEARN_VERSION="0.3.3"
mkdir -p "$CACHE"

ready() { [ -x "$PY" ] && "$PY" -c "import hmmlearn, sys; sys.exit(0 if hmmlearn.__version__ == '$HMMLEARN_VERSION' else 1)" 2>/dev/null; }

if ready; then echo "$PY"; exit 0; fi
exec 9>"$CACHE/hmmlearn.lock"; flock 9
if ready; then echo "$PY"; exit 0; fi

# Debian's python3 keeps venv and ensurepip in python3-venv: install it on first use when the
# interpreter on PATH lacks them (the image's Python has both).
bash "$(dirname "$0")/apt-ensure.sh" python3-venv python3 -c 'import venv, ensurepip' >&2
BASE_PY="$(command -v python3)"
"$BASE_PY" -m venv "$VENV" >&2 \
  || { echo "ensure-hmmlearn: '$BASE_PY -m venv' failed; install python3-venv" >&2; exit 1; }
"$PY" -m pip install --quiet --disable-pip-version-check "hmmlearn==$HMMLEARN_VERSION" >&2 \
  || { echo "ensure-hmmlearn: pip could not install hmmlearn==$HMMLEARN_VERSION from PyPI" >&2; exit 1; }
ready || { echo "ensure-hmmlearn: hmmlearn $HMMLEARN_VERSION not importable after install" >&2; exit 1; }
echo "$PY"
