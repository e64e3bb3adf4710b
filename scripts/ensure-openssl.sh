#!/usr/bin/env bash
# Makes the openssl CLI available: the webhook suites mint a throw-away CA and server
# certificate for their HTTPS receivers with it. Prints the binary path.
set -euo pipefail
exec bash "$(dirname "$0")/apt-ensure.sh" openssl command -v openssl
