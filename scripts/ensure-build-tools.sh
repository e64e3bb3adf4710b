#!/usr/bin/env bash
# What `npm ci` itself needs before any of our code runs: better-sqlite3 compiles its native
# addon with node-gyp (python3, make, g++) when no prebuilt binary can be downloaded, as on
# machines that reach only the package registries. The image of our machines has all three, so
# `npm ci && npm test` needs nothing else; this script is for machines that lack them (.ci/run
# calls it first). Everything the suites need is installed by `npm test`'s own set-up.
set -euo pipefail
here="$(dirname "$0")"
bash "$here/apt-ensure.sh" g++ command -v g++ >/dev/null
bash "$here/apt-ensure.sh" make command -v make >/dev/null
bash "$here/apt-ensure.sh" python3 command -v python3 >/dev/null
