package io.kubelix.api.informer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * What an informer tells a handler (client-go's {@code ResourceEventHandler}).
 *
 * <p>Each handler gets its notifications in the order the informer saw the changes, one at a time,
 * on a thread of the informer's; handlers do not wait for each other, so a slow handler delays only
 * itself. A handler should do little more than put a key on a work queue: the objects it is given
 * are the informer's cached ones, shared with every other handler and lister, and must not be
 * changed (copy with {@code deepCopy()} first). An exception a handler throws is logged and the
 * next notification is delivered.
 */
@ConsumerType
public interface ResourceEventHandler {

    /**
     * An object appeared: it was in the informer's first list, or was created since.
     *
     * @param obj              the object
     * @param isInInitialList  true when the object was already there when the informer first listed the
     *                         resource, or when this handler was added (client-go's {@code isInInitialList})
     */
    void onAdd(ObjectNode obj, boolean isInInitialList);

    /**
     * An object changed, or a resync is due ({@code oldObj} and {@code newObj} are then the same
     * object: compare {@code metadata.resourceVersion} to tell).
     */
    void onUpdate(ObjectNode oldObj, ObjectNode newObj);

    /**
     * An object went away. When the informer learned it by listing again after its watch had
     * expired (410), the object is the last state the informer saw rather than the deleted state
     * (client-go's {@code DeletedFinalStateUnknown}); its resourceVersion tells which.
     */
    void onDelete(ObjectNode obj);
}
