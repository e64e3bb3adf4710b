#!/usr/bin/env bash
# `npm run start:dapr`: the distributed mode on one machine, without Docker. Starts Redis (actor
# state + pub/sub), Dapr placement and scheduler, and REPLICAS (default 2) copies of the service
# with ACTOR_RUNTIME=dapr, each with its own daprd, all under one app id so placement spreads
# the actors over them. Binaries: the cached Dapr 1.16.2 build (scripts/ensure-dapr.sh, ~7 min
# the first time) and Debian's redis-server (scripts/ensure-redis.sh).
#
# Each daprd probes its app's health (/healthz, see dapr/config.yaml for why): a stuck replica's
# actors move to the others; a stopping replica asks its daprd to shut down, which moves them.
#
# Ctrl-C (or SIGTERM) stops everything in order: the services first (their last turns still
# commit through their sidecars), then the sidecars, scheduler, placement and Redis.
#
# Settings (environment): REPLICAS (1 or more), PORT (first replica's HTTP port, default 8080;
# replica i listens on PORT+i), STORE_URL (default sqlite:./data/mis-dapr.sqlite, shared by the
# replicas), DAPR_RUN_DIR (Redis, scheduler and component files, default ./data/dapr),
# APP_API_TOKEN (daprd's token for its app; default: random per run), and
# everything the service itself reads (REPLAY_SPEED, LOG_LEVEL, ...). Actor state and reminders
# persist in DAPR_RUN_DIR across runs; delete it to start over.
set -euo pipefail
cd "$(dirname "$0")/.."

REPLICAS="${REPLICAS:-2}"
BASE_PORT="${PORT:-8080}"
RUN_DIR="${DAPR_RUN_DIR:-./data/dapr}"
APP_ID="${DAPR_APP_ID:-market-intel}"
export STORE_URL="${STORE_URL:-sqlite:./data/mis-dapr.sqlite}"
# daprd sends APP_API_TOKEN with every call to its app, and the app refuses its callback routes
# without it (they share the API port). A fresh random token per run unless one is given.
export APP_API_TOKEN="${APP_API_TOKEN:-$(node -e 'process.stdout.write(require("node:crypto").randomBytes(32).toString("hex"))')}"
# Fixed ports a little off the usual defaults so a system Redis or a `dapr init` install
# does not collide; every port of every process is distinct (DECISIONS 6).
REDIS_PORT="${DAPR_REDIS_PORT:-6380}"
PLACEMENT_PORT=50005 PLACEMENT_HEALTH=58080 PLACEMENT_METRICS=59090
SCHEDULER_PORT=50006 SCHEDULER_HEALTH=58081 SCHEDULER_METRICS=59091 ETCD_CLIENT=52379 ETCD_PEER=52380

BIN=$(bash scripts/ensure-dapr.sh)
REDIS=$(bash scripts/ensure-redis.sh)
mkdir -p "$RUN_DIR/components" "$RUN_DIR/redis" "$RUN_DIR/scheduler" "$RUN_DIR/logs"
RUN_DIR=$(cd "$RUN_DIR" && pwd)
# Dapr does not expand variables in component files: fill in the Redis port here.
for f in components/local/*.yaml; do
  sed "s/\${REDIS_PORT}/$REDIS_PORT/g" "$f" >"$RUN_DIR/components/$(basename "$f")"
done

PIDS=()
NAMES=()
start() { # name, command...: own session, so Ctrl-C reaches only this script, which stops in order
  local name=$1; shift
  setsid "$@" >"$RUN_DIR/logs/$name.log" 2>&1 &
  PIDS+=($!); NAMES+=("$name")
}

stop_group() { # pattern: TERM every process whose name matches at once, then wait for them
  local i pid waiting=()
  for i in "${!PIDS[@]}"; do
    [[ ${NAMES[$i]} == $1 ]] || continue
    pid=${PIDS[$i]}
    kill -0 "$pid" 2>/dev/null || continue
    kill -TERM "$pid" 2>/dev/null || true
    waiting+=("$i")
  done
  # The service promises to exit within 10 s of SIGTERM (DECISIONS 1); the rest are quicker.
  for _ in $(seq 1 120); do
    local alive=0
    for i in "${waiting[@]}"; do kill -0 "${PIDS[$i]}" 2>/dev/null && alive=1; done
    [ "$alive" -eq 0 ] && break
    sleep 0.1
  done
  for i in "${waiting[@]}"; do
    pid=${PIDS[$i]}
    if kill -0 "$pid" 2>/dev/null; then echo "start-dapr: ${NAMES[$i]} did not stop; killing it" >&2; kill -KILL "$pid" 2>/dev/null || true; fi
    wait "$pid" 2>/dev/null || true
  done
}

stopping=0
stop_all() {
  [ "$stopping" -eq 1 ] && return; stopping=1
  trap - INT TERM
  echo "start-dapr: stopping" >&2
  # All services together while every sidecar still runs: a sidecar leaving earlier would make
  # placement move actors under the services' last turns.
  stop_group 'service-*'
  stop_group 'daprd-*'
  stop_group scheduler
  stop_group placement
  stop_group redis
  echo "start-dapr: stopped (logs in $RUN_DIR/logs)" >&2
}
trap 'stop_all; exit 130' INT
trap 'stop_all; exit 143' TERM
trap 'stop_all' EXIT

wait_http() { # what, url, seconds, pid
  for _ in $(seq 1 $(($3 * 10))); do
    curl -fsS -o /dev/null "$2" 2>/dev/null && return 0
    kill -0 "$4" 2>/dev/null || { echo "start-dapr: $1 exited; see $RUN_DIR/logs" >&2; return 1; }
    sleep 0.1
  done
  echo "start-dapr: $1 not ready after $3 s; see $RUN_DIR/logs" >&2; return 1
}

start redis "$REDIS" --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$RUN_DIR/redis" --appendonly yes --save ''
for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$REDIS_PORT") 2>/dev/null && break; sleep 0.1; done

# Everything on loopback: without mTLS (no sentry here), anyone who reached placement or a daprd's
# internal gRPC port could invoke actors, and daprd would forward to the app with its token.
start placement "$BIN/placement" --port "$PLACEMENT_PORT" --healthz-port "$PLACEMENT_HEALTH" --metrics-port "$PLACEMENT_METRICS" \
  --listen-address 127.0.0.1 --healthz-listen-address 127.0.0.1 --metrics-listen-address 127.0.0.1 \
  --id dapr-placement-0 --initial-cluster "dapr-placement-0=127.0.0.1:$((PLACEMENT_PORT + 1000))" --log-level warn
start scheduler "$BIN/scheduler" --port "$SCHEDULER_PORT" --healthz-port "$SCHEDULER_HEALTH" --metrics-port "$SCHEDULER_METRICS" \
  --etcd-data-dir "$RUN_DIR/scheduler" --etcd-client-port "$ETCD_CLIENT" \
  --etcd-initial-cluster "dapr-scheduler-server-0=http://127.0.0.1:$ETCD_PEER" --id dapr-scheduler-server-0 \
  --listen-address 127.0.0.1 --healthz-listen-address 127.0.0.1 --metrics-listen-address 127.0.0.1 \
  --override-broadcast-host-port "127.0.0.1:$SCHEDULER_PORT" --log-level warn
wait_http placement "http://127.0.0.1:$PLACEMENT_HEALTH/healthz" 30 "${PIDS[1]}"
wait_http scheduler "http://127.0.0.1:$SCHEDULER_HEALTH/healthz" 60 "${PIDS[2]}"

for ((r = 0; r < REPLICAS; r++)); do
  app_port=$((BASE_PORT + r)) http_port=$((3500 + r)) grpc_port=$((50001 + 10 * r))
  # The service listens before it calls its actors, and its calls wait for the sidecar.
  start "service-$r" env ACTOR_RUNTIME=dapr PORT="$app_port" HOST="${HOST:-127.0.0.1}" DAPR_HTTP_PORT="$http_port" \
    PUBLIC_BASE_URL="${PUBLIC_BASE_URL:-http://localhost:$BASE_PORT}" node --import tsx src/main.ts
  # DAPR_HOST_IP: the address daprd announces to placement for its internal gRPC port, which
  # listens on loopback only; the other daprds reach it there.
  start "daprd-$r" env DAPR_HOST_IP=127.0.0.1 "$BIN/daprd" --app-id "$APP_ID" --app-port "$app_port" --app-protocol http --app-channel-address 127.0.0.1 \
    --dapr-http-port "$http_port" --dapr-grpc-port "$grpc_port" --dapr-internal-grpc-port "$((grpc_port + 1))" \
    --dapr-listen-addresses 127.0.0.1 --dapr-internal-grpc-listen-address 127.0.0.1 \
    --metrics-port "$((9091 + r))" --metrics-listen-address 127.0.0.1 \
    --placement-host-address "127.0.0.1:$PLACEMENT_PORT" --scheduler-host-address "127.0.0.1:$SCHEDULER_PORT" \
    --resources-path "$RUN_DIR/components" --config dapr/config.yaml --log-level warn \
    --enable-app-health-check --app-health-check-path /healthz --app-health-probe-interval 5 \
    --app-health-probe-timeout 4000 --app-health-threshold 3 --dapr-graceful-shutdown-seconds 10
done
for ((r = 0; r < REPLICAS; r++)); do
  wait_http "service-$r" "http://127.0.0.1:$((BASE_PORT + r))/v1/health" 90 "${PIDS[$((3 + 2 * r))]}"
  echo "start-dapr: replica $r on http://127.0.0.1:$((BASE_PORT + r)) (daprd HTTP $((3500 + r)))" >&2
done
echo "start-dapr: running; Ctrl-C stops everything. Logs: $RUN_DIR/logs" >&2

# Any process that exits on its own takes the rest down with it.
set +e
wait -n "${PIDS[@]}"
status=$?
for i in "${!PIDS[@]}"; do
  kill -0 "${PIDS[$i]}" 2>/dev/null || echo "start-dapr: ${NAMES[$i]} exited; see $RUN_DIR/logs/${NAMES[$i]}.log" >&2
done
exit "$status"
