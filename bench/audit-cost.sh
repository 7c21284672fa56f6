#!/usr/bin/env bash
# The cost of auditing on GET throughput: the same server (memory storage) without auditing, then
# with a policy auditing every request at the Metadata level to a rotated JSON log
# (--audit-log-mode=blocking, kube's default), alternately, in pairs; each run is `bench authz`'s
# admin round (GETs of one configmap with 16 in flight).
# usage: bench/audit-cost.sh <distribution dir> [pairs, default 3] [seconds per run, default 8] [audit log mode]
# Needs bench/target/kubelix-bench.jar (mvn -pl bench package). Prints one row per run and the ratio.
set -euo pipefail
dist=$1 pairs=${2:-3} seconds=${3:-8} mode=${4:-blocking}
here=$(cd "$(dirname "$0")" && pwd)
jar=$here/target/kubelix-bench.jar
work=${TMPDIR:-/tmp}/kbench-audit
port=${KBENCH_PORT:-18444}
policy=$work-policy.yaml
cat >"$policy" <<'POLICY'
apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: Metadata
POLICY

run() {
  local audit=$1 flags=(--storage-backend=memory)
  if [[ $audit == on ]]; then
    flags+=(--audit-policy-file "$policy" --audit-log-path "$work/audit/audit.log" --audit-log-maxsize 100
      --audit-log-maxbackup 1 --audit-log-mode "$mode")
  fi
  KUBELIX_JAVA_OPTS=${KUBELIX_JAVA_OPTS:--Xmx1g} "$here/run-server.sh" "$dist" "$work" "$port" "${flags[@]}" >/dev/null
  local rate
  rate=$(java -Xmx1g -jar "$jar" authz --server "https://127.0.0.1:$port" --ca "$work/data/pki/ca.crt" \
    --token "$(cat "$work/token")" --roles 0 --seconds "$seconds" --rounds 1 --in-flight 16 \
    | awk -F'|' '/\| 1 \| admin/ {gsub(/ /, "", $4); print $4}')
  local events=0
  [[ $audit == off ]] || events=$(cat "$work"/audit/*.log | wc -l)
  kill "$(cat "$work/pid")"
  while kill -0 "$(cat "$work/pid")" 2>/dev/null; do sleep 0.2; done
  echo "| $audit | $rate | $events |"
  echo "$rate" >>"$work-$audit.rates"
}

rm -f "$work-off.rates" "$work-on.rates"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| audit | GET/s | audit log lines |"
echo "|---|---|---|"
for _ in $(seq 1 "$pairs"); do
  run off
  run on
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '{s+=$1} END {printf "%f\n", s}' "$work-off.rates" >"$work-off.sum"
awk '{s+=$1} END {printf "%f\n", s}' "$work-on.rates" >"$work-on.sum"
echo "audited / not audited throughput: $(awk -v on="$(cat "$work-on.sum")" -v off="$(cat "$work-off.sum")" \
  'BEGIN {printf "%.3f", on / off}')"
