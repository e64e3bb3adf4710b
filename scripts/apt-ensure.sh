#!/usr/bin/env bash
# Usage: apt-ensure.sh <debian-package> <check command...>
# Installs <debian-package> with apt-get when <check command> fails, then runs the check once
# more with its output on stdout (`command -v X` thus prints the path). Idempotent; every caller
# takes the same lock, because the test set-up runs several ensure-* scripts at once and two
# apt-get runs would fight over dpkg's lock.
set -euo pipefail
PKG="$1"; shift
ok() { "$@" >/dev/null 2>&1; }
if ok "$@"; then "$@"; exit 0; fi
CACHE="${MIS_CACHE_DIR:-$HOME/.cache/market-intel}"
mkdir -p "$CACHE"
exec 9>"$CACHE/apt.lock"; flock 9
if ok "$@"; then "$@"; exit 0; fi
command -v apt-get >/dev/null \
  || { echo "apt-ensure: '$*' fails and there is no apt-get here; install $PKG (Debian's name) by hand" >&2; exit 1; }
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null \
    || { echo "apt-ensure: need root (or sudo) to apt-get install $PKG; or install it by hand" >&2; exit 1; }
  SUDO="sudo -n"
fi
echo "apt-ensure: installing $PKG (once)" >&2
( $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$PKG" ) >&2 \
  || { echo "apt-ensure: apt-get could not install $PKG; install it by hand" >&2; exit 1; }
ok "$@" || { echo "apt-ensure: $PKG installed but '$*' still fails" >&2; exit 1; }
"$@"
