package io.kubelix.api.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import org.osgi.annotation.versioning.ProviderType;

import java.util.List;

/**
 * runtime.EquivalentResourceMapper with the object convertor admission has beside it: which served
 * resources are the same objects as another (as kube-apiserver decides it, those kept under the same
 * storage prefix: every version of a resource, {@code events} and {@code events.k8s.io} events, every
 * served version of a CRD), the kind each serves, and the conversion of an object from one to another.
 * Admission plugins with {@code matchPolicy: Equivalent} use it to match a request through a version
 * their rules do not name. Registered by core-runtime, answered from the resources served now.
 *
 * @since 1.2
 */
@ProviderType
public interface EquivalentResourceMapper {

    /**
     * The served resources equivalent to {@code resource} (itself included) that also serve
     * {@code subresource} (empty for the resource itself), in the order the server lists them; empty
     * when {@code resource} is not served.
     */
    List<GroupVersionResource> equivalentResourcesFor(GroupVersionResource resource, String subresource);

    /** The kind served at {@code resource} and {@code subresource} (empty for none); null when it is not served. */
    GroupVersionKind kindFor(GroupVersionResource resource, String subresource);

    /**
     * {@code obj}, an object as served at {@code from}, as {@code to} serves it (a new object; the
     * argument is not changed). Converted as the storage both share converts it, a CRD's conversion
     * webhook included.
     *
     * @throws StatusException when the two are not equivalent or the conversion fails
     */
    ObjectNode convert(ObjectNode obj, GroupVersionResource from, GroupVersionResource to, String subresource);
}
