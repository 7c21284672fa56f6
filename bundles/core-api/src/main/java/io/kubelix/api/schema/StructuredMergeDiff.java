package io.kubelix.api.schema;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.osgi.annotation.versioning.ProviderType;

import java.util.List;

/**
 * Server-side apply's merge of an apply configuration into an object (structured-merge-diff's
 * {@code typed.Merge}), for plugins that mutate objects the way apply does, as kube's
 * MutatingAdmissionPolicy does with its {@code ApplyConfiguration} mutations. The schema says how
 * values merge: fields of structs and of granular maps one by one, lists of
 * {@code x-kubernetes-list-type: map} item by item on their {@code x-kubernetes-list-map-keys},
 * sets by value, and atomic lists, maps and structs and scalars as a whole, the configuration's
 * value replacing the object's. No field ownership is recorded. Registered by core-runtime.
 *
 * @since 1.5
 */
@ProviderType
public interface StructuredMergeDiff {

    /**
     * The object with {@code configuration} merged into it; neither argument is changed.
     *
     * @param schema the schema of both objects' kind, or null to merge as for an object without one
     *               (maps granular, lists atomic)
     * @throws IllegalArgumentException when the configuration does not fit the schema, with
     *                                  structured-merge-diff's message ({@code .spec.replicas: expected
     *                                  numeric (int or float), got string}), or has two items of a
     *                                  map list or set with the same key
     */
    ObjectNode merge(ResourceSchema schema, ObjectNode object, ObjectNode configuration);

    /**
     * The paths of the atomic lists, maps and structs {@code configuration} sets, as kube's
     * {@code fieldpath} prints them ({@code .spec.selector}, {@code .spec.containers[0].args}), in
     * the order the configuration has them; empty when it sets none.
     */
    List<String> atomicPaths(ResourceSchema schema, ObjectNode configuration);
}
