package io.kubelix.api.schema;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The kinds the server serves and their OpenAPI schemas, as kube's {@code resolver.SchemaResolver}
 * and a RESTMapper's {@code KindsFor} answer them for its type checkers (ValidatingAdmissionPolicy's
 * {@code status.typeChecking}): from the resources served now, built-in and custom alike. Registered
 * by core-runtime.
 *
 * @since 1.4
 */
@ProviderType
public interface SchemaResolver {

    /** The kind served at {@code resource} (not a subresource) now; null when it is not served. */
    GroupVersionKind kindFor(GroupVersionResource resource);

    /** The schema of a served kind; null when no served resource has that kind or it has no schema. */
    ResourceSchema resolveSchema(GroupVersionKind kind);
}
