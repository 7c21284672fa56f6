package io.kubelix.api.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.request.RequestContext;
import org.osgi.annotation.versioning.ConsumerType;

import java.util.List;

/**
 * rest.RESTUpdateStrategy: what the generic Store asks a resource when an object is replaced or
 * patched. After validation the Store canonicalizes with the create strategy's
 * {@link RESTCreateStrategy#canonicalize}, so the stored form is the same on both paths.
 */
@ConsumerType
public interface RESTUpdateStrategy {

    /** Whether an update of a missing object creates it (PUT as create). */
    default boolean allowCreateOnUpdate() {
        return false;
    }

    /**
     * Whether an update without {@code metadata.resourceVersion} is applied to whatever is current;
     * when false it is rejected, forcing optimistic concurrency.
     */
    default boolean allowUnconditionalUpdate() {
        return true;
    }

    /** Keeps fields the client may not change (such as status), in place on {@code obj}. */
    default void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
    }

    /** Validates the new object against the old; an empty list means valid. */
    List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old);

    /** Warnings for the client about a valid update. */
    default List<String> warningsOnUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return List.of();
    }
}
