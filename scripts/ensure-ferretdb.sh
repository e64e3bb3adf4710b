#!/usr/bin/env bash
# Builds FerretDB 1.24.2 (a MongoDB-wire server over SQLite) from its Go module into a cache
# outside the repository, once. `go install …@v1.24.2` does not work here (the proxy refuses
# the version list), and the binary panics without build/version/version.txt.
set -euo pipefail
CACHE="${MIS_CACHE_DIR:-$HOME/.cache/market-intel}"
BIN="$CACHE/bin/ferretdb"
VERSION="v1.24.2"
if [ -x "$BIN" ] && "$BIN" --version 2>/dev/null | grep -q "${VERSION#v}"; then
  echo "$BIN"; exit 0
fi
command -v go >/dev/null || { echo "ensure-ferretdb: Go >= 1.24 is required to build FerretDB (Debian bookworm's golang is 1.19, too old)" >&2; exit 1; }
mkdir -p "$CACHE/bin" "$CACHE/src"
exec 9>"$CACHE/ferretdb.lock"; flock 9
if [ -x "$BIN" ] && "$BIN" --version 2>/dev/null | grep -q "${VERSION#v}"; then echo "$BIN"; exit 0; fi
DIR=$(go mod download -json "github.com/FerretDB/FerretDB@$VERSION" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
WORK="$CACHE/src/ferretdb-$VERSION"
rm -rf "$WORK"; cp -r "$DIR" "$WORK"; chmod -R u+w "$WORK"
echo "$VERSION" > "$WORK/build/version/version.txt"
( cd "$WORK" && go build -o "$BIN" ./cmd/ferretdb ) >&2
echo "$BIN"
