package io.kubelix.resource.core.quota;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.resource.core.namespace.NamespaceLister;

import java.util.function.UnaryOperator;

/**
 * Writes resource quotas' status for the quota admission plugin and the quota controller. A
 * service private to this bundle: {@link io.kubelix.resource.core.CoreRESTStorageProvider} registers it because it owns the
 * quota Store, and {@link ResourceQuotaAdmission} consumes it, as {@link NamespaceLister}.
 */
public interface QuotaStatusWriter {

    /**
     * Updates the quota's status with {@code change}, given the current quota (a copy) and
     * returning the quota to write, or null to leave it; retried on the current quota when another
     * write came first.
     *
     * @param dryRun run the change and write nothing
     * @throws io.kubelix.api.errors.StatusException what {@code change} throws; 404 for a quota gone;
     *                                               503 when the quota Store is not built yet
     */
    void update(String namespace, String name, UnaryOperator<ObjectNode> change, boolean dryRun);
}
