/** Pods, with {@code status}, {@code binding} and {@code eviction}, and podtemplates. */
package io.kubelix.resource.core.pod;
