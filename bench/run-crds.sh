#!/usr/bin/env bash
# The CRD scale scenario: N CustomResourceDefinitions in one API group applied with kubectl to a fresh
# server (memory storage), the time until every one is Established, the live heap after a full GC,
# and the latency of aggregated discovery and of the group's OpenAPI v3 document with N served.
# usage: bench/run-crds.sh <distribution dir> <work dir> [N]
#   e.g. KUBELIX_JAVA_OPTS=-Xmx2g bench/run-crds.sh distribution/target/kubelix /tmp/kcrds 1000
set -euo pipefail
dist=$1 work=$2 n=${3:-1000}
here=$(cd "$(dirname "$0")" && pwd)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$here/run-server.sh" "$dist" "$work" "$port" --storage-backend memory
pid=$(cat "$work/pid")
trap 'kill "$pid" 2>/dev/null || true' EXIT
export KUBECONFIG=$work/data/admin.kubeconfig
until kubectl get --raw /apis/apiextensions.k8s.io/v1 >/dev/null 2>&1; do sleep 0.2; done

python3 - "$n" >"$work/crds.yaml" <<'PY'
import sys
for i in range(int(sys.argv[1])):
    print(f"""---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: things{i}.bench.example.com}}
spec:
  group: bench.example.com
  scope: Namespaced
  names: {{plural: things{i}, kind: Thing{i}, shortNames: [th{i}]}}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {{status: {{}}}}
    additionalPrinterColumns: [{{name: Size, type: integer, jsonPath: .spec.size}}]
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations: [{{rule: "self.size <= self.max", message: size above max}}]
            properties: {{size: {{type: integer, minimum: 0}}, max: {{type: integer, default: 10}}, name: {{type: string}}}}
          status: {{type: object, properties: {{ready: {{type: boolean}}}}}}""")
PY

start=$(date +%s.%N)
kubectl apply -f "$work/crds.yaml" >/dev/null
applied=$(date +%s.%N)
established() {
  kubectl get crd -o jsonpath='{range .items[*]}{range .status.conditions[?(@.type=="Established")]}{.status}{"\n"}{end}{end}' \
    | grep -c True || true
}
while [[ $(established) -lt $n ]]; do sleep 0.5; done
done_at=$(date +%s.%N)
echo "crds: $n; applied in $(echo "$applied - $start" | bc) s; all Established $(echo "$done_at - $start" | bc) s after the apply began"

jcmd "$pid" GC.run >/dev/null
echo "live heap after full GC: $(jcmd "$pid" GC.heap_info | grep -o 'used [0-9]*K' | head -1)"

time_ms() { # prints the best and median of 10 requests of the URL path, in ms
  for _ in $(seq 1 10); do
    curl -sk -o /dev/null -w '%{time_total}\n' -H "Authorization: Bearer $(cat "$work/token")" -H "Accept: $2" \
      "https://127.0.0.1:$port$1"
  done | sort -n | awk '{a[NR]=$1*1000} END {printf "best %.1f ms, median %.1f ms\n", a[1], a[int((NR+1)/2)]}'
}
echo "aggregated discovery /apis: $(time_ms /apis 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList')"
echo "OpenAPI v3 /openapi/v3/apis/bench.example.com/v1: $(time_ms /openapi/v3/apis/bench.example.com/v1 application/json)"
