#!/usr/bin/env bash
# Starts a private copy of a Kubelix distribution for benchmarking and waits until it is ready.
# usage: bench/run-server.sh <distribution dir> <work dir> <port> [kubelix flags...]
# (KUBELIX_JAVA_OPTS passes JVM flags; further arguments go to bin/kubelix, e.g. --storage-backend etcd3)
# Writes <work dir>/pid, <work dir>/token and <work dir>/server.log.
set -euo pipefail
dist=$1 work=$2 port=$3
shift 3
rm -rf "$work" && mkdir -p "$work"
cp -r "$dist" "$work/dist"
nohup "$work/dist/bin/kubelix" --secure-port "$port" --data-dir "$work/data" "$@" >"$work/server.log" 2>&1 &
echo $! >"$work/pid"
for _ in $(seq 1 240); do
  if curl -skf "https://127.0.0.1:$port/readyz" >/dev/null; then
    cut -d, -f1 "$work/data/tokens.csv" >"$work/token"
    echo "ready: pid $(cat "$work/pid"), port $port"
    exit 0
  fi
  sleep 0.5
done
echo "not ready after 120 s; see $work/server.log" >&2
exit 1
