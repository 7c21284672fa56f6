package io.kubelix.resource.core.common;

import io.kubelix.api.schema.ResourceSchema;


/**
 * The OpenAPI schemas of the core kinds, from {@code openapi/schemas.json} in this bundle, which
 * the build generates from the Kubernetes Java client at Kubelix's API level (see the
 * {@code openapi-schemas} execution in this bundle's POM).
 */
public final class CoreSchemas {
    static final String RESOURCE = "/openapi/schemas.json";

    private CoreSchemas() {
    }

    /** The schema of a kind of {@code /api/v1}, such as {@code ConfigMap}. */
    public static ResourceSchema v1(String kind) {
        return ResourceSchema.load(CoreSchemas.class, RESOURCE, "io.k8s.api.core.v1." + kind);
    }
}
