package io.kubelix.resource.core;

import io.kubelix.api.schema.ResourceSchema;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The OpenAPI schemas of the core kinds, from {@code openapi/schemas.json} in this bundle, which
 * the build generates from the Kubernetes Java client at Kubelix's API level (see the
 * {@code openapi-schemas} execution in this bundle's POM).
 */
final class CoreSchemas {
    static final String RESOURCE = "/openapi/schemas.json";

    private CoreSchemas() {
    }

    /** The schema of a kind of {@code /api/v1}, such as {@code ConfigMap}. */
    static ResourceSchema v1(String kind) {
        try (InputStream in = CoreSchemas.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the bundle");
            }
            return ResourceSchema.load(in, "io.k8s.api.core.v1." + kind);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
