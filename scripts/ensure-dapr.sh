#!/usr/bin/env bash
# Builds daprd, placement and scheduler of Dapr 1.16.2 from the Go module into a cache outside
# the repository, once (about 7 minutes and 6 GB of Go caches on a fresh machine).
# components-contrib 1.16.3, which dapr 1.16.2 names, is not on the module proxy, hence 1.16.5;
# daprd panics at start without a components build tag, and `allcomponents` does not compile
# with this Go, hence `stablecomponents`. Prints the bin directory on stdout.
set -euo pipefail
CACHE="${MIS_CACHE_DIR:-$HOME/.cache/market-intel}"
BIN="$CACHE/bin"
VERSION="v1.16.2"
CONTRIB="v1.16.5"
STAMP="$BIN/.dapr-$VERSION"
built() { [ -f "$STAMP" ] && [ -x "$BIN/daprd" ] && [ -x "$BIN/placement" ] && [ -x "$BIN/scheduler" ]; }
if built; then echo "$BIN"; exit 0; fi
command -v go >/dev/null || { echo "ensure-dapr: Go >= 1.24 is required to build Dapr (Debian bookworm's golang is 1.19, too old)" >&2; exit 1; }
mkdir -p "$BIN" "$CACHE/src"
exec 9>"$CACHE/dapr.lock"; flock 9
if built; then echo "$BIN"; exit 0; fi
DIR=$(go mod download -json "github.com/dapr/dapr@$VERSION" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
WORK="$CACHE/src/dapr-$VERSION"
rm -rf "$WORK"; cp -r "$DIR" "$WORK"; chmod -R u+w "$WORK"
(
  cd "$WORK"
  go mod edit -require="github.com/dapr/components-contrib@$CONTRIB"
  # Build into a temp dir so a half-finished build never looks complete to a concurrent reader.
  OUT=$(mktemp -d "$CACHE/src/dapr-out.XXXXXX")
  GOFLAGS=-mod=mod go build -tags stablecomponents -o "$OUT/" ./cmd/daprd ./cmd/placement ./cmd/scheduler
  mv -f "$OUT/daprd" "$OUT/placement" "$OUT/scheduler" "$BIN/"
  rmdir "$OUT"
) >&2
touch "$STAMP"
echo "$BIN"
