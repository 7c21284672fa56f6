#!/usr/bin/env bash
# Measures plugin swaps on a running private copy of the distribution (see run-server.sh):
#  1. the time from a plugin jar landing in plugins/ to its resources being served, and back to 404
#     after the jar is removed (ROUNDS times);
#  2. the crud scenario twice: once steady, once while resource-core's jar is replaced every
#     SWAP_EVERY seconds (FileInstall updates the bundle in place), to compare latencies and errors.
# usage: bench/plugin-swap.sh <work dir of run-server.sh> <port> <plugin jar> <resource path it serves>
#   e.g. bench/plugin-swap.sh /tmp/kbench 18443 itest/sample-resource/target/sample-resource-0.1.0-SNAPSHOT.jar \
#        /apis/sample.kubelix.io/v1/namespaces/default/widgets
set -euo pipefail
work=$1 port=$2 jar=$3 path=$4
rounds=${ROUNDS:-10} swap_every=${SWAP_EVERY:-10} seconds=${SECONDS_PER_RUN:-60}
plugins="$work/dist/plugins"
token=$(cat "$work/token")
url="https://127.0.0.1:$port$path"
status() { curl -sk -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "$url"; }
now_ms() { date +%s%3N; }
wait_for() { # wait_for <code>: polls every 5 ms, prints the milliseconds it took
  local start=$1 code=$2
  while [[ "$(status)" != "$code" ]]; do sleep 0.005; done
  echo $(( $(now_ms) - start ))
}

echo "| round | jar in plugins/ → served (ms) | jar removed → 404 (ms) |"
echo "|---|---|---|"
name=$(basename "$jar")
for i in $(seq 1 "$rounds"); do
  cp "$jar" "$work/$name.tmp"
  t0=$(now_ms); mv "$work/$name.tmp" "$plugins/$name"
  served=$(wait_for "$t0" 200)
  t0=$(now_ms); rm "$plugins/$name"
  gone=$(wait_for "$t0" 404)
  echo "| $i | $served | $gone |"
done

bench="java -Xmx1g -jar $(dirname "$0")/target/kubelix-bench.jar"
args=(--server "https://127.0.0.1:$port" --ca "$work/data/pki/ca.crt" --token "$token" --seconds "$seconds")
echo; echo "crud, steady:"
$bench crud "${args[@]}"
core=$(ls "$plugins"/resource-core-*.jar)
echo; echo "crud, resource-core's jar replaced every $swap_every s:"
( end=$(( $(date +%s) + seconds )); swaps=0
  while (( $(date +%s) + swap_every < end )); do
    sleep "$swap_every"; cp "$core" "$core.tmp"; touch "$core.tmp"; mv "$core.tmp" "$core"; swaps=$((swaps + 1))
  done; echo "resource-core replaced $swaps times" >&2 ) &
swapper=$!
$bench crud "${args[@]}"
wait "$swapper"
