/**
 * What several families of the core group read: unstructured-object helpers, quantities, kube's
 * validation wording and field checks, and the generated OpenAPI schemas.
 */
package io.kubelix.resource.core.common;
