#!/usr/bin/env bash
# What operating features cost GET throughput: the same server (memory storage) with API Priority
# and Fairness off (the plain in-flight limits) and on, and without and with an audit policy at the
# Metadata level (a rotated JSON log, --audit-log-mode=blocking, kube's default), in rotation; each
# run is `bench authz`'s round of GETs of one configmap with 16 in flight, once as the admin (in
# system:masters: APF's exempt level) and once as a token-file user bound to `view` (RBAC, and APF's
# global-default level). Metrics are always on (kube has no switch for them). Each fresh server is
# warmed by a round of each identity and three rounds more before the one measured, which gives GET/s
# and the server's CPU milliseconds per GET (process CPU from /proc: what the features cost, and
# less disturbed by a busy machine than the rate).
# usage: bench/operations-cost.sh <distribution dir> [rounds, default 3] [seconds per run, default 8]
# Needs bench/target/kubelix-bench.jar (mvn -f bench/pom.xml package). Prints one row per run and the ratios.
set -euo pipefail
dist=$1 rounds=${2:-3} seconds=${3:-8}
here=$(cd "$(dirname "$0")" && pwd)
jar=$here/target/kubelix-bench.jar
work=${TMPDIR:-/tmp}/kbench-ops
port=${KBENCH_PORT:-18445}
policy=$work-policy.yaml
results=$work-results
cat >"$policy" <<'POLICY'
apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: Metadata
POLICY

run() {
  local config=$1 flags=(--storage-backend=memory)
  case $config in
    off) flags+=(--enable-priority-and-fairness=false) ;;
    apf) ;;
    audit) flags+=(--enable-priority-and-fairness=false) ;;
    apf+audit) ;;
  esac
  if [[ $config == *audit ]]; then
    flags+=(--audit-policy-file "$policy" --audit-log-path "$work/audit/audit.log" --audit-log-maxsize 100
      --audit-log-maxbackup 1 --audit-log-mode blocking)
  fi
  KUBELIX_JAVA_OPTS=${KUBELIX_JAVA_OPTS:--Xmx1g} "$here/run-server.sh" "$dist" "$work" "$port" "${flags[@]}" >/dev/null
  echo 'bench-user-token,bench-user,bench-user,' >>"$work/data/tokens.csv"
  sleep 2 # the token file is read again within a second of a change
  local out admin user
  out=$(java -Xmx1g -jar "$jar" authz --server "https://127.0.0.1:$port" --ca "$work/data/pki/ca.crt" \
    --token "$(cat "$work/token")" --roles 0 --seconds "$seconds" --rounds 4 --in-flight 16 \
    --user-token bench-user-token --server-pid "$(cat "$work/pid")")
  local admin_cpu user_cpu
  admin=$(awk -F'|' '/\| 4 \| admin/ {gsub(/ /, "", $4); print $4}' <<<"$out")
  user=$(awk -F'|' '/\| 4 \| user/ {gsub(/ /, "", $4); print $4}' <<<"$out")
  admin_cpu=$(awk -F'|' '/\| 4 \| admin/ {gsub(/ /, "", $5); print $5}' <<<"$out")
  user_cpu=$(awk -F'|' '/\| 4 \| user/ {gsub(/ /, "", $5); print $5}' <<<"$out")
  kill "$(cat "$work/pid")"
  while kill -0 "$(cat "$work/pid")" 2>/dev/null; do sleep 0.2; done
  echo "| $config | $admin | $user | $admin_cpu | $user_cpu |"
  echo "$config $admin $user $admin_cpu $user_cpu" >>"$results"
}

rm -f "$results"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| configuration | GET/s as admin (exempt) | GET/s as a user (RBAC, global-default) | server CPU ms per GET, admin | server CPU ms per GET, user |"
echo "|---|---|---|---|---|"
for _ in $(seq 1 "$rounds"); do
  for config in off apf audit apf+audit; do
    run "$config"
  done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '{a[$1]+=$2; u[$1]+=$3; ac[$1]+=$4; uc[$1]+=$5} END {
  for (c in a) if (c != "off") printf "%s / off: GET/s admin %.3f, user %.3f; CPU per GET admin %.3f, user %.3f\n",
    c, a[c] / a["off"], u[c] / u["off"], ac[c] / ac["off"], uc[c] / uc["off"]
}' "$results" | sort
