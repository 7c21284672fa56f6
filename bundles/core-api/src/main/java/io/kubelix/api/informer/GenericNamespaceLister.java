package io.kubelix.api.informer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.osgi.annotation.versioning.ProviderType;

import java.util.List;
import java.util.Optional;

/** The objects of one namespace in an informer's cache; as {@link GenericLister}, read-only and shared. */
@ProviderType
public interface GenericNamespaceLister {

    /** Every cached object of the namespace, ordered by name. */
    List<ObjectNode> list();

    /** An object of the namespace by name. */
    Optional<ObjectNode> get(String name);
}
