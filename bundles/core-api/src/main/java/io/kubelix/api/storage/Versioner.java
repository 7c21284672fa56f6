package io.kubelix.api.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.osgi.annotation.versioning.ProviderType;

/** storage.Versioner: how resourceVersions are read from and written to objects. */
@ProviderType
public interface Versioner {

    /** Sets {@code metadata.resourceVersion} to {@code revision}. */
    void updateObject(ObjectNode obj, long revision);

    /** The object's resourceVersion as a revision, or 0 when unset. */
    long objectResourceVersion(ObjectNode obj);

    /**
     * Parses a resourceVersion from a request: {@code ""} is 0.
     *
     * @throws io.kubelix.api.errors.StatusException 400 {@code BadRequest} when it is not a number
     */
    long parseResourceVersion(String resourceVersion);
}
