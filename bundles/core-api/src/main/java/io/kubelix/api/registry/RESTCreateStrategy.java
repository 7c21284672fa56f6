package io.kubelix.api.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.request.RequestContext;
import org.osgi.annotation.versioning.ConsumerType;

import java.util.List;

/**
 * rest.RESTCreateStrategy: what the generic Store asks a resource when an object is created. The
 * Store itself sets uid, creationTimestamp and the name from generateName, and validates
 * metadata; the strategy does what is particular to the resource, including setting
 * {@code metadata.generation} to 1 for resources with a spec.
 */
@ConsumerType
public interface RESTCreateStrategy {

    /** Clears fields the client may not set (such as status) and applies defaults, in place. */
    default void prepareForCreate(RequestContext ctx, ObjectNode obj) {
    }

    /** Validates the object; an empty list means valid. */
    List<FieldError> validate(RequestContext ctx, ObjectNode obj);

    /** Warnings for the client about a valid object. */
    default List<String> warningsOnCreate(RequestContext ctx, ObjectNode obj) {
        return List.of();
    }

    /** Normalises the object into its stored form after validation, in place. */
    default void canonicalize(ObjectNode obj) {
    }
}
