package io.kubelix.api.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.ResourceSchema;
import org.osgi.annotation.versioning.ConsumerType;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * rest.Storage: the handlers of one resource (or subresource) at one group version. What it can
 * do is what it implements: {@link Getter}, {@link Lister}, {@link Creater}, {@link Updater},
 * {@link GracefulDeleter}, {@link CollectionDeleter}, {@link Watcher}. Discovery reports the
 * verbs from these. Nearly every resource uses the generic Store from
 * {@link RESTOptionsGetter#newStore}.
 */
@ConsumerType
public interface RESTStorage {

    /** The kind of the objects served, such as {@code ConfigMap}. */
    String kind();

    /** Whether objects live in namespaces. */
    boolean namespaced();

    /** The lower-case singular name, such as {@code configmap}. */
    String singularName();

    /** Short names kubectl accepts, such as {@code cm}. */
    default List<String> shortNames() {
        return List.of();
    }

    /** Categories such as {@code all}. */
    default List<String> categories() {
        return List.of();
    }

    /**
     * The columns of the server-side Table ({@code kubectl get}); empty means the default
     * NAME and AGE.
     */
    default List<TableColumn> tableColumns() {
        return List.of();
    }

    /**
     * Fields a {@code fieldSelector} may name besides {@code metadata.name} and
     * {@code metadata.namespace} (such as an event's {@code involvedObject.name}), each with how to
     * read it from an object; a missing field reads as the empty string.
     */
    default Map<String, Function<ObjectNode, String>> selectableFields() {
        return Map.of();
    }

    /**
     * The OpenAPI schema of the objects served, published in {@code /openapi/v2} and
     * {@code /openapi/v3} and used to find unknown fields ({@code fieldValidation}); null when the
     * resource has none, in which case unknown fields are kept as sent and the documents describe
     * the objects as free-form. A subresource that serves the parent's objects (status) returns
     * the parent's.
     */
    default ResourceSchema schema() {
        return null;
    }

    /**
     * The patch types ({@code Content-Type}s of PATCH) the resource takes, or null for every one the
     * server knows (JSON, merge, strategic merge and apply patches). Another type is kube's 415
     * {@code the body of the request was in an unknown format - accepted media types include: ...};
     * custom resources take no strategic merge patch, as in kube-apiserver.
     */
    default List<String> patchTypes() {
        return null;
    }

    /**
     * A warning sent (as a {@code Warning: 299} header) with the answer to every request to the
     * resource, such as a deprecated custom resource version's; null for none.
     */
    default String warning() {
        return null;
    }

    /** Releases what this storage holds; called when its provider goes away. */
    default void destroy() {
    }
}
