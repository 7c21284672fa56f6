#!/usr/bin/env bash
# The writes scenario against a private copy of a Kubelix distribution, first on etcd (started here
# on free loopback ports with its own data directory; the scenario reads etcd's request counters
# from its /metrics), then on the memory backend, each on a fresh server started by run-server.sh.
# usage: bench/run-writes.sh <distribution dir> <work dir> [writes flags...]
#   e.g. KUBELIX_JAVA_OPTS=-Xmx2g bench/run-writes.sh distribution/target/kubelix /tmp/kwrites --count 2000
# BACKENDS="etcd3 memory" (the default) chooses the backends (any --storage-backend; etcd3 starts its etcd) and their order.
set -euo pipefail
dist=$1 work=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
bench="java -Xmx1g -jar $here/target/kubelix-bench.jar"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
pids=()
stop() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap stop EXIT
rm -rf "$work" && mkdir -p "$work"

for backend in ${BACKENDS:-etcd3 memory}; do
  port=$(free_port)
  server_args=(--storage-backend "$backend")
  bench_args=()
  if [[ $backend == etcd3 ]]; then
    client=$(free_port) peer=$(free_port)
    etcd --name bench --data-dir "$work/etcd" --quota-backend-bytes 4294967296 \
      --listen-client-urls "http://127.0.0.1:$client" --advertise-client-urls "http://127.0.0.1:$client" \
      --listen-peer-urls "http://127.0.0.1:$peer" --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
      --initial-cluster "bench=http://127.0.0.1:$peer" >"$work/etcd.log" 2>&1 &
    etcd_pid=$!
    pids+=("$etcd_pid")
    for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$client/health" >/dev/null && break; sleep 0.2; done
    echo "etcd $(etcd --version | head -1 | cut -d' ' -f3) on http://127.0.0.1:$client"
    server_args+=(--etcd-servers "http://127.0.0.1:$client")
    bench_args=(--etcd-metrics "http://127.0.0.1:$client" --etcd-pid "$etcd_pid")
  fi
  "$here/run-server.sh" "$dist" "$work/$backend" "$port" "${server_args[@]}"
  pids+=("$(cat "$work/$backend/pid")")
  s="$work/$backend"
  echo "## $backend"
  $bench writes --server "https://127.0.0.1:$port" --ca "$s/data/pki/ca.crt" --token "$(cat "$s/token")" \
    --server-pid "$(cat "$s/pid")" --request-connections 8 "${bench_args[@]}" "$@"
  kill "$(cat "$s/pid")"
  if [[ $backend == etcd3 ]]; then kill "$etcd_pid"; fi
done
