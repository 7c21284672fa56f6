/**
 * A minimal resource plugin for the integration tests: {@code widgets.sample.kubelix.io/v1}
 * (kind Widget, namespaced, short name {@code wg}) served by the generic Store, with a strategy
 * that rejects a negative {@code spec.size}. Private to the bundle: nothing is exported.
 */
package io.kubelix.itest.sample;
