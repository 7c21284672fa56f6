package io.kubelix.api.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.request.RequestContext;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * rest.NamedCreater: a subresource that only accepts a POST on a named object, such as
 * {@code pods/binding} or {@code pods/eviction}. Serve it as {@code "<resource>/<subresource>"} in
 * the {@link APIGroupInfo}; discovery lists it with the verb {@code create}, and with the group,
 * version and kind of its body when it also implements {@link GroupVersionKindProvider} (an
 * eviction is {@code policy/v1 Eviction}).
 *
 * <p>Before {@link #create} is called the server decodes the body, refuses one of another kind
 * (400), and runs admission on it, mutating then validating, as a {@code CREATE} of this
 * subresource: the attributes carry the body's kind, the parent resource, this subresource's name
 * and the name and namespace from the URL. What the subresource then writes through a Store is
 * admitted again by that Store.
 */
@ConsumerType
public interface NamedCreater extends RESTStorage {

    /**
     * Acts on the object {@code name} (in {@code ctx.namespace()}) with the body {@code obj}.
     *
     * @return what the response carries: usually a {@code v1 Status} with {@code status: Success}
     *         (answered 201, its {@code code} set to 201 when 0), or an object of this storage's kind
     * @throws io.kubelix.api.errors.StatusException 400 when the body's name is not {@code name},
     *         404 when the object is missing, 409 and 422 as the subresource decides
     */
    ObjectNode create(RequestContext ctx, String name, ObjectNode obj, CreateOptions options);
}
