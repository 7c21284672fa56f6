/**
 * What the installed plugins contribute, for operators: the {@code /kubelix/plugins} status
 * endpoint and the Gogo commands {@code kubelix:plugins} and {@code kubelix:groups}. Everything
 * is derived from the OSGi service registry (which bundle registered each whiteboard service) and
 * from the core API's route table (which provider serves each group/version/resource and which
 * are shadowed by a higher-ranked one). Internal to core-runtime: nothing here is exported.
 */
package io.kubelix.runtime.plugins;
