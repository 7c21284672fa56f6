/**
 * Server-side printing (k8s.io/apiserver's {@code registry/rest} TableConvertor and its default
 * table): objects as a meta.k8s.io Table with the resource's printer columns. Private to core-runtime.
 */
package io.kubelix.runtime.table;
