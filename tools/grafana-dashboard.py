#!/usr/bin/env python3
"""Writes docs/grafana/kubelix-apiserver.json, the Grafana dashboard of Kubelix's /metrics.

Edit the panels here and run this script rather than editing the JSON, so every query keeps the
instance selector and the layout stays on Grafana's 24-column grid. KubectlMetricsIT checks that
every metric the dashboard queries is one the server serves.
"""
import json
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'docs', 'grafana', 'kubelix-apiserver.json')
SEL='instance=~"$instance"'
def sel(extra=''):
    return '{'+SEL+(', '+extra if extra else '')+'}'
CODE45=sel('code=~"[45].."')
NOLONG=sel('verb!~"WATCH|CONNECT"')
HEAP=sel('area="heap"')
panels=[]
y=0
def row(title):
    global y
    panels.append({"type":"row","title":title,"collapsed":False,"gridPos":{"h":1,"w":24,"x":0,"y":y},"panels":[]})
    y+=1
col=0
def panel(title, targets, unit="short", desc="", w=8, stack=False):
    global y, col
    if col+w>24:
        col=0; y+=8
    p={"type":"timeseries","title":title,"description":desc,
       "datasource":{"type":"prometheus","uid":"${datasource}"},
       "gridPos":{"h":8,"w":w,"x":col,"y":y},
       "fieldConfig":{"defaults":{"unit":unit,"custom":{"fillOpacity":10,"stacking":{"mode":"normal" if stack else "none"}}},"overrides":[]},
       "options":{"legend":{"displayMode":"table","placement":"bottom","calcs":["mean","max"]},"tooltip":{"mode":"multi"}},
       "targets":[{"expr":e,"legendFormat":l,"refId":chr(65+i)} for i,(e,l) in enumerate(targets)]}
    panels.append(p); col+=w
def endrow():
    global y,col
    y+=8; col=0

row("Requests")
panel("Requests per second by verb",[(f'sum by (verb) (rate(apiserver_request_total{sel()}[$__rate_interval]))',"{{verb}}")],"reqps",
      "apiserver_request_total: every request answered, by verb.",stack=True)
panel("Errors per second by code",[(f'sum by (code) (rate(apiserver_request_total{CODE45}[$__rate_interval]))',"{{code}}")],"reqps",
      "4xx and 5xx answers. 429 comes from the in-flight limits or priority and fairness, 504 from --request-timeout.")
panel("Request latency p99 by verb",[(f'histogram_quantile(0.99, sum by (le, verb) (rate(apiserver_request_duration_seconds_bucket{NOLONG}[$__rate_interval])))',"{{verb}}")],"s",
      "Long-running requests (watches, exec, proxy) are left out, as kube's SLO dashboards leave them out.")
endrow()
panel("Slowest resources (p99 over the range)",[(f'topk(10, histogram_quantile(0.99, sum by (le, verb, group, resource) (rate(apiserver_request_duration_seconds_bucket{NOLONG}[$__rate_interval]))))',"{{verb}} {{resource}}.{{group}}")],"s")
panel("Requests in flight",[(f'sum by (request_kind) (apiserver_current_inflight_requests{sel()})',"{{request_kind}}")],"short",
      "The most requests of each kind in flight during the last second, against --max-requests-inflight and --max-mutating-requests-inflight.")
panel("Long-running requests",[(f'sum by (verb, resource) (apiserver_longrunning_requests{sel()})',"{{verb}} {{resource}}")],"short","Open watches and other long-running requests.")
endrow()
panel("Response sizes p99 by resource",[(f'topk(10, histogram_quantile(0.99, sum by (le, resource) (rate(apiserver_response_sizes_bucket{sel()}[$__rate_interval]))))',"{{resource}}")],"bytes")
panel("Requests terminated in self-defence",[(f'sum by (code, resource) (rate(apiserver_request_terminations_total{sel()}[$__rate_interval]))',"{{code}} {{resource}}")],"reqps",
      "Requests the server gave up on: timeouts (504) and rejections.")
endrow()
row("Admission")
panel("Admission step latency p99",[(f'histogram_quantile(0.99, sum by (le, type, operation) (rate(apiserver_admission_step_admission_duration_seconds_bucket{sel()}[$__rate_interval])))',"{{type}} {{operation}}")],"s",
      "The whole mutating (admit) or validating (validate) step of a write.")
panel("Slowest admission plugins p99",[(f'topk(10, histogram_quantile(0.99, sum by (le, name, type) (rate(apiserver_admission_controller_admission_duration_seconds_bucket{sel()}[$__rate_interval]))))',"{{name}} {{type}}")],"s")
panel("Admission webhooks: latency p99 and rejections",[
    (f'histogram_quantile(0.99, sum by (le, name) (rate(apiserver_admission_webhook_admission_duration_seconds_bucket{sel()}[$__rate_interval])))',"p99 {{name}}"),
    (f'sum by (name, error_type) (rate(apiserver_admission_webhook_rejection_count{sel()}[$__rate_interval]))',"rejected {{name}} {{error_type}}")],"short",
    "Webhook calls' latency, and the requests a webhook denied (no_error) or failed (calling_webhook_error) while failing closed.")
endrow()
row("Storage and watch cache")
panel("Stored objects (top 10 resources)",[(f'topk(10, max by (resource) (apiserver_storage_objects{sel()}))',"{{resource}}")])
panel("Storage request latency p99 by operation",[
    (f'histogram_quantile(0.99, sum by (le, operation) (rate(etcd_request_duration_seconds_bucket{sel()}[$__rate_interval])))',"etcd {{operation}}"),
    (f'histogram_quantile(0.99, sum by (le, operation) (rate(kubelix_sql_request_duration_seconds_bucket{sel()}[$__rate_interval])))',"sql {{operation}}")],"s",
    "etcd_request_duration_seconds on storage-etcd, kubelix_sql_request_duration_seconds on SQLite or PostgreSQL; only the backend in use has samples.")
panel("Storage requests per second",[
    (f'sum by (operation) (rate(etcd_requests_total{sel()}[$__rate_interval]))',"etcd {{operation}}"),
    (f'sum by (operation) (rate(kubelix_sql_requests_total{sel()}[$__rate_interval]))',"sql {{operation}}")],"reqps")
endrow()
panel("Watch cache events received and dispatched",[
    (f'sum by (resource) (rate(apiserver_watch_cache_events_received_total{sel()}[$__rate_interval]))',"received {{resource}}"),
    (f'sum by (resource) (rate(apiserver_watch_cache_events_dispatched_total{sel()}[$__rate_interval]))',"dispatched {{resource}}")],"ops")
panel("Watchers by resource",[(f'sum by (resource) (kubelix_watch_cache_watchers{sel()})',"{{resource}}")],"short")
panel("Watch events sent by kind, and slow watchers terminated",[
    (f'sum by (kind) (rate(apiserver_watch_events_total{sel()}[$__rate_interval]))',"{{kind}}"),
    (f'sum by (resource) (rate(apiserver_terminated_watchers_total{sel()}[$__rate_interval]))',"terminated {{resource}}")],"ops")
endrow()
row("Plugins")
panel("Plugins by state",[(f'sum by (state) (kubelix_plugins{sel()})',"{{state}}")],"short",
      "Plugin bundles of plugins/ by OSGi state; Installed means a plugin that did not resolve.")
panel("Plugin updates",[(f'sum by (plugin) (increase(kubelix_plugin_updates_total{sel()}[$__rate_interval]))',"{{plugin}}")],"short")
panel("Plugin update drain time p99",[(f'histogram_quantile(0.99, sum by (le, plugin) (rate(kubelix_plugin_update_drain_seconds_bucket{sel()}[$__rate_interval])))',"{{plugin}}")],"s",
      "How long requests for a plugin's resources waited while its new revision took over.")
endrow()
row("JVM and process")
panel("CPU",[(f'rate(process_cpu_seconds_total{sel()}[$__rate_interval])',"{{instance}}")],"percentunit")
panel("Heap",[(f'sum by (instance) (jvm_memory_used_bytes{HEAP})',"used {{instance}}"),
              (f'sum by (instance) (jvm_memory_committed_bytes{HEAP})',"committed {{instance}}")],"bytes")
panel("GC time and threads",[(f'sum by (gc) (rate(jvm_gc_collection_seconds_sum{sel()}[$__rate_interval]))',"gc {{gc}}"),
                             (f'jvm_threads_current{sel()}',"threads")],"short")
endrow()
dash={"title":"Kubelix API server","uid":"kubelix-apiserver","tags":["kubelix","kube-apiserver"],
 "description":"kube-apiserver's metric names as Kubelix serves them on /metrics, plus Kubelix's plugin and storage metrics.",
 "editable":True,"schemaVersion":39,"version":1,"refresh":"30s","time":{"from":"now-1h","to":"now"},
 "templating":{"list":[
   {"name":"datasource","type":"datasource","query":"prometheus","label":"Data source","current":{}},
   {"name":"instance","type":"query","datasource":{"type":"prometheus","uid":"${datasource}"},
    "query":{"query":"label_values(apiserver_request_total, instance)","refId":"instance"},
    "definition":"label_values(apiserver_request_total, instance)","includeAll":True,"multi":True,"allValue":".*",
    "current":{"text":"All","value":"$__all"},"refresh":2,"label":"Instance"}]},
 "panels":panels}
json.dump(dash, open(OUT,'w'), indent=2)
print(OUT, len(panels), "panels")
