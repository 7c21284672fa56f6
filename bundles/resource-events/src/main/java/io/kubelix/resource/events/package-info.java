/**
 * The events.k8s.io API group at {@code /apis/events.k8s.io/v1}: events. Private to the bundle.
 *
 * <p>As in kube, these are the core/v1 Events: {@link io.kubelix.resource.events.EventsRESTStorageProvider}
 * serves the objects stored under the core events' key prefix, converted between the two shapes by
 * {@link io.kubelix.resource.events.EventConversion}, so each API sees the other's events. Writes through
 * this API get kube's strict events.k8s.io validation ({@link io.kubelix.resource.events.EventValidation}).
 */
package io.kubelix.resource.events;
