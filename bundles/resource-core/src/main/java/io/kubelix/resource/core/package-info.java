/**
 * The core API group at {@code /api/v1}. Private to the bundle, as are all its subpackages.
 *
 * <p>This package only wires the group together: {@link io.kubelix.resource.core.CoreRESTStorageProvider}
 * builds a generic Store per resource from each family's specs (strategy, printer columns, schema),
 * adds the subresources, starts the controllers on the server's informers, and registers the
 * bundle-private {@link io.kubelix.resource.core.namespace.NamespaceLister} and
 * {@link io.kubelix.resource.core.quota.QuotaStatusWriter} services because it owns those Stores.
 * (The system namespaces are core-runtime's {@code start-system-namespaces-controller} post-start hook.)
 *
 * <p>Each resource family has its own package, and everything about a family lives in it: its
 * specs, strategies, validation, printers, REST subresources, controllers <em>and admission
 * plugins</em>. There is no admission package: a plugin goes with the resource it is named after
 * or, failing that, the one it changes ({@code NamespaceLifecycle} in {@code namespace},
 * {@code LimitRanger} and {@code ResourceQuota} in {@code quota}, {@code ServiceAccount} in
 * {@code serviceaccount}, {@code DefaultStorageClass}, which defaults claims, in {@code volume}).
 * <ul>
 *   <li>{@code namespace}: namespaces (with {@code status}, {@code finalize}), NamespaceLifecycle;</li>
 *   <li>{@code config}: configmaps and secrets;</li>
 *   <li>{@code event}: core/v1 events;</li>
 *   <li>{@code pod}: pods (with {@code status}, {@code binding}, {@code eviction}) and podtemplates;</li>
 *   <li>{@code replicationcontroller}: replicationcontrollers (with {@code status}, {@code scale});</li>
 *   <li>{@code node}: nodes (with {@code status});</li>
 *   <li>{@code service}: services and endpoints, the cluster IP and node port allocators, their
 *       repair and ranges;</li>
 *   <li>{@code serviceaccount}: serviceaccounts (with {@code token}), their controller and admission;</li>
 *   <li>{@code volume}: persistentvolumes and persistentvolumeclaims, DefaultStorageClass;</li>
 *   <li>{@code quota}: resourcequotas and limitranges, their controller and admission plugins;</li>
 *   <li>{@code common}: only what several families read: unstructured-object helpers, quantities,
 *       kube's validation wording and field checks, the generated OpenAPI schemas.</li>
 * </ul>
 * A class or member is public only where another of these packages (or the provider's tests)
 * uses it. The DS components that moved out of this package keep their former names
 * ({@code @Component(name = ...)}), because a plugin update swaps each component for the one of
 * the same name.
 */
package io.kubelix.resource.core;
