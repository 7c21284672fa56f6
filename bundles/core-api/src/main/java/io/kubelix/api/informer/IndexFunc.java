package io.kubelix.api.informer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.osgi.annotation.versioning.ConsumerType;

import java.util.List;

/**
 * Computes the values an object is indexed under (client-go's {@code IndexFunc}); an object may have
 * none or several. It must depend only on the object, and must not throw.
 */
@ConsumerType
@FunctionalInterface
public interface IndexFunc {

    List<String> index(ObjectNode obj);
}
