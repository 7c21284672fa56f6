#!/usr/bin/env bash
# Measures what the aggregator's proxy adds to a GET. Starts an extension API server (the full
# distribution, which serves widgets, believing the users a front-proxy CA's client names) and an
# aggregating server (the default distribution, presenting that CA's client certificate), both on free
# loopback ports; registers sample.kubelix.io/v1 with an APIService of an ExternalName localhost
# service, creates a widget, and runs the proxy-get scenario on it, through the aggregator and direct.
# BASELINE=<a distribution directory> (such as an older build's distribution/target/kubelix) starts a
# second aggregating server from it, set up the same way, which proxy-get reads in the same rotation.
# SCENARIO=watch-fanout runs the watch-fanout scenario on the extension's widgets instead, first directly
# from the extension server and then through the aggregating server.
# usage: [BASELINE=dir] [SCENARIO=watch-fanout] bench/run-aggregator.sh <distribution/target> <work dir> [scenario flags...]
set -euo pipefail
dists=$1 work=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

rm -rf "$work" && mkdir -p "$work/front-proxy"
(
  cd "$work/front-proxy"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=front-proxy-ca \
    -keyout ca.key -out ca.crt 2>/dev/null
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=front-proxy-client \
    -keyout proxy.key -out proxy.csr 2>/dev/null
  echo extendedKeyUsage=clientAuth >client.cnf
  openssl x509 -req -in proxy.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 1 -extfile client.cnf \
    -out proxy.crt 2>/dev/null
)

ext_port=$(free_port)
agg_port=$(free_port)
cleanup() {
  for s in extension aggregator baseline; do
    if [ -f "$work/$s/pid" ]; then kill "$(cat "$work/$s/pid")" 2>/dev/null || true; fi
  done
}
trap cleanup EXIT
"$here/run-server.sh" "$dists/kubelix-full" "$work/extension" "$ext_port" \
  --requestheader-client-ca-file "$work/front-proxy/ca.crt" --requestheader-allowed-names front-proxy-client \
  --requestheader-username-headers X-Remote-User --requestheader-group-headers X-Remote-Group \
  --requestheader-extra-headers-prefix X-Remote-Extra- --tls-san api.extensions.svc
ext() { kubectl --kubeconfig "$work/extension/data/admin.kubeconfig" "$@"; }

# An aggregating server from distribution $1 in $work/$2 on port $3, with the extension's APIService.
aggregating_server() {
  local dist=$1 dir=$work/$2 port=$3
  "$here/run-server.sh" "$dist" "$dir" "$port" \
    --proxy-client-cert-file "$work/front-proxy/proxy.crt" --proxy-client-key-file "$work/front-proxy/proxy.key"
  local agg=(kubectl --kubeconfig "$dir/data/admin.kubeconfig")
  "${agg[@]}" create namespace extensions >/dev/null
  "${agg[@]}" create service externalname api -n extensions --external-name localhost >/dev/null
  "${agg[@]}" apply -f - >/dev/null <<YAML
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1.sample.kubelix.io}
spec:
  group: sample.kubelix.io
  version: v1
  groupPriorityMinimum: 1000
  versionPriority: 15
  caBundle: $(base64 -w0 "$work/extension/data/pki/ca.crt")
  service: {namespace: extensions, name: api, port: $ext_port}
YAML
  "${agg[@]}" wait --for=condition=Available apiservice/v1.sample.kubelix.io --timeout=120s >/dev/null
}

aggregating_server "$dists/kubelix" aggregator "$agg_port"
baseline=()
if [ -n "${BASELINE:-}" ]; then
  base_port=$(free_port)
  aggregating_server "$BASELINE" baseline "$base_port"
  baseline=(--baseline-server "https://127.0.0.1:$base_port" --baseline-ca "$work/baseline/data/pki/ca.crt"
    --baseline-token "$(cat "$work/baseline/token")")
fi
ext apply -f - >/dev/null <<YAML
apiVersion: sample.kubelix.io/v1
kind: Widget
metadata: {name: bench, namespace: default}
spec: {size: 3}
YAML

if [ "${SCENARIO:-proxy-get}" = watch-fanout ]; then
  ext create namespace bench-fanout >/dev/null
  widgets=(--group-version /apis/sample.kubelix.io/v1 --resource widgets --kind Widget --namespace bench-fanout)
  echo "## directly from the extension server"
  java ${BENCH_JAVA_OPTS:-} -jar "$here/target/kubelix-bench.jar" watch-fanout "${widgets[@]}" \
    --server "https://127.0.0.1:$ext_port" --ca "$work/extension/data/pki/ca.crt" --token "$(cat "$work/extension/token")" \
    --server-pid "$(cat "$work/extension/pid")" "$@"
  echo "## through the aggregating server (server CPU: the aggregating server's)"
  java ${BENCH_JAVA_OPTS:-} -jar "$here/target/kubelix-bench.jar" watch-fanout "${widgets[@]}" \
    --server "https://127.0.0.1:$agg_port" --ca "$work/aggregator/data/pki/ca.crt" --token "$(cat "$work/aggregator/token")" \
    --server-pid "$(cat "$work/aggregator/pid")" "$@"
  exit 0
fi

java ${BENCH_JAVA_OPTS:-} -jar "$here/target/kubelix-bench.jar" proxy-get \
  --server "https://127.0.0.1:$agg_port" --ca "$work/aggregator/data/pki/ca.crt" --token "$(cat "$work/aggregator/token")" \
  --direct-server "https://127.0.0.1:$ext_port" --direct-ca "$work/extension/data/pki/ca.crt" \
  --direct-token "$(cat "$work/extension/token")" --path /apis/sample.kubelix.io/v1/namespaces/default/widgets/bench "${baseline[@]}" "$@"
