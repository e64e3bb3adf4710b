#!/usr/bin/env bash
# Makes a Python virtual environment with Schemathesis (the property-based API fuzzer that found
# issue 19) in the cache outside the repository. Idempotent and flock'd, since parallel suites may
# call it at once. Prints the path of the `schemathesis` executable on stdout; progress on stderr.
set -euo pipefail
CACHE="${MIS_CACHE_DIR:-$HOME/.cache/market-intel}"
VENV="$CACHE/schemathesis-venv"
PY="$VENV/bin/python"
ST="$VENV/bin/schemathesis"
SCHEMATHESIS_VERSION="4.32.5"
mkdir -p "$CACHE"

ready() { [ -x "$ST" ] && [ "$("$PY" -c 'import importlib.metadata as m; print(m.version("schemathesis"))' 2>/dev/null)" = "$SCHEMATHESIS_VERSION" ]; }

if ready; then echo "$ST"; exit 0; fi
exec 9>"$CACHE/schemathesis.lock"; flock 9
if ready; then echo "$ST"; exit 0; fi

bash "$(dirname "$0")/apt-ensure.sh" python3-venv python3 -c 'import venv, ensurepip' >&2
BASE_PY="$(command -v python3)"
"$BASE_PY" -m venv "$VENV" >&2 \
  || { echo "ensure-schemathesis: '$BASE_PY -m venv' failed; install python3-venv" >&2; exit 1; }
"$PY" -m pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION" >&2 \
  || { echo "ensure-schemathesis: pip could not install schemathesis==$SCHEMATHESIS_VERSION from PyPI" >&2; exit 1; }
ready || { echo "ensure-schemathesis: schemathesis $SCHEMATHESIS_VERSION not runnable after install" >&2; exit 1; }
echo "$ST"
