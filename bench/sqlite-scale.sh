#!/usr/bin/env bash
# The embedded default (SQLite) at scale, on a private copy of a distribution:
#  1. start-up with OBJECTS configmaps stored (default 100,000): a fresh server is filled with the
#     writes scenario (--keep), stopped, and started again; prints the time from the start of
#     bin/kubelix to /readyz 200 and to the first full LIST of them, and the database's size;
#  2. growth: a fresh server, LIVE configmaps (default 1,000) updated PASSES times each (default
#     1,000, so 1,000,000 updates), then compacted (--etcd-compaction-interval, 1m here); prints the
#     database's size against its live data (the configmaps' JSON as the API returns them).
#  restart: the measurement of 1. again with this distribution, on a copy of the database an earlier
#     startup part left in the same work dir, so two builds can be compared in turn on the same data.
# Each restart logs its GCs and prints the heap's peak (its highest occupancy before a GC) up to the
# LIST's answer.
# usage: bench/sqlite-scale.sh <distribution dir> <work dir> [startup|growth|restart]...   (startup and growth when none given)
# OBJECTS, LIVE, PASSES, IN_FLIGHT set the sizes; KUBELIX_JAVA_OPTS passes JVM flags to the server.
set -euo pipefail
dist=$1 work=$2
shift 2
parts=("${@:-startup growth}")
here=$(cd "$(dirname "$0")" && pwd)
bench="java -Xmx1g -jar $here/target/kubelix-bench.jar"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
now_ms() { date +%s%3N; }
db_bytes() { du -cb "$1"/data/*.db* 2>/dev/null | tail -1 | cut -f1; }
pid=
trap '[[ -n $pid ]] && kill "$pid" 2>/dev/null || true' EXIT
# Starts the server of work dir $1 again on port $2, prints the time to /readyz 200 and to the first
# LIST of the scale-1 namespace that answers 200 (not tried when $3 is 1), the heap's peak, then stops it.
restart_and_list() {
  local s=$1 port=$2 warmup=${3:-0} start ready listed code n
  rm -f "$s/gc.log"
  start=$(now_ms)
  KUBELIX_JAVA_OPTS="${KUBELIX_JAVA_OPTS:-} -Xlog:gc:file=$s/gc.log" \
    nohup "$s/dist/bin/kubelix" --secure-port "$port" --data-dir "$s/data" --storage-backend sqlite >"$s/restart.log" 2>&1 &
  pid=$!
  until curl -skf "https://127.0.0.1:$port/readyz" >/dev/null; do sleep 0.05; done
  ready=$(now_ms)
  # the first LIST that answers 200 (an answer before it, e.g. a 429 while the watch cache loads, is
  # shown), given up LIST_TIMEOUT seconds (default 300) after readiness
  code=
  while [[ $warmup != 1 && $(( $(now_ms) - ready )) -lt $(( ${LIST_TIMEOUT:-300} * 1000 )) ]]; do
    code=$(curl -sk -m "${LIST_TIMEOUT:-300}" -o "$s/list.json" -w '%{http_code}' -H "Authorization: Bearer $(cat "$s/token")" \
      "https://127.0.0.1:$port/api/v1/namespaces/scale-1/configmaps")
    [[ $code == 200 ]] && break
    echo "LIST answered $code after $(( $(now_ms) - start )) ms: $(head -c 300 "$s/list.json")"
    sleep 0.1
  done
  listed=$(now_ms)
  n=$([[ $code == 200 ]] && python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["items"]))' "$s/list.json" || echo no)
  echo "restart: /readyz 200 after $((ready - start)) ms; LIST of $n configmaps answered after $((listed - start)) ms;" \
    "heap peak $(grep -o '[0-9]*M->' "$s/gc.log" | sed 's/M->//' | sort -n | tail -1) MiB (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  kill "$pid"; while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done; pid=
}

mkdir -p "$work"

for part in ${parts[*]}; do
  port=$(free_port)
  s="$work/$part"
  case $part in
  startup)
    objects=${OBJECTS:-100000}
    "$here/run-server.sh" "$dist" "$s" "$port" --storage-backend sqlite
    pid=$(cat "$s/pid")
    echo "## start-up with $objects configmaps stored (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    $bench writes --server "https://127.0.0.1:$port" --ca "$s/data/pki/ca.crt" --token "$(cat "$s/token")" \
      --server-pid "$pid" --count "$objects" --rounds 1 --updates 0 --keep --in-flight "${IN_FLIGHT:-16}" \
      --request-connections 8 --namespace scale
    kill "$pid"; while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    echo "database: $(db_bytes "$s") bytes"
    restart_and_list "$s" "$port"
    ;;
  growth)
    live=${LIVE:-1000} passes=${PASSES:-1000}
    "$here/run-server.sh" "$dist" "$s" "$port" --storage-backend sqlite --etcd-compaction-interval 1m
    pid=$(cat "$s/pid")
    echo "## growth: $live configmaps updated $passes times each (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    $bench writes --server "https://127.0.0.1:$port" --ca "$s/data/pki/ca.crt" --token "$(cat "$s/token")" \
      --server-pid "$pid" --count "$live" --rounds 1 --updates "$passes" --keep --in-flight "${IN_FLIGHT:-16}" \
      --request-connections 8 --namespace growth | grep -v '^| update [0-9]'
    echo "database after the updates: $(db_bytes "$s") bytes"
    # two compaction intervals: the first compacts to the revision the one before it saw
    sleep 130
    curl -sk -H "Authorization: Bearer $(cat "$s/token")" "https://127.0.0.1:$port/api/v1/namespaces/growth-1/configmaps" \
      >"$s/live.json"
    echo "database after compaction: $(db_bytes "$s") bytes; live data (the LIST's JSON): $(stat -c %s "$s/live.json") bytes"
    kill "$pid"; pid=
    ;;
  restart)
    # Each distribution restarts its own copy of the database, whose Felix cache it filled itself at
    # a first, unmeasured start (a cache filled by another distribution would keep that one's bundles).
    name=$(basename "$(cd "$dist" && pwd)")
    s="$work/restart-$name"
    if [[ ! -d $s ]]; then
      [[ -f $work/startup/data/kubelix.db ]] || { echo "no database in $work/startup/data: run the startup part first" >&2; exit 2; }
      mkdir -p "$s" && cp -r "$dist" "$s/dist" && cp "$work/startup/token" "$s/token"
      cp -r "$work/startup/data" "$s/data" && rm -rf "$s/data/felix-cache" "$s/data/fileinstall-tmp"
      restart_and_list "$s" "$port" 1 >/dev/null
    fi
    echo "## restart of $name with $(stat -c %s "$s/data/kubelix.db") bytes of database"
    restart_and_list "$s" "$port"
    ;;
  *) echo "unknown part $part (startup, growth, restart)" >&2; exit 2 ;;
  esac
done
