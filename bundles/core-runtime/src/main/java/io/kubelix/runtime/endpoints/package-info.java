/**
 * The core API's HTTP side (k8s.io/apiserver's {@code pkg/endpoints}): the route table the
 * installed providers' resources are served from ({@code APIInstaller}, {@code RouteTable}), the
 * request scope and handlers of each verb, content negotiation, the watch handler with its
 * streams over chunked HTTP and WebSockets, and the discovery and OpenAPI documents. What the
 * handlers use lives in packages of its own: {@code patch}, {@code validation}, {@code table},
 * {@code fieldmanager}, {@code endpoints.responsewriters}. Private to core-runtime.
 */
package io.kubelix.runtime.endpoints;
