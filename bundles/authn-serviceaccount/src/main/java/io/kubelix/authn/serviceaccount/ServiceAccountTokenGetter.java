package io.kubelix.authn.serviceaccount;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Optional;

/**
 * kube's {@code serviceaccount.ServiceAccountTokenGetter}: the objects a token names, as the
 * server has them now. Empty means the object does not exist; a getter that cannot tell (its
 * cache is not ready) throws a {@link io.kubelix.api.errors.StatusException}.
 */
interface ServiceAccountTokenGetter {

    Optional<ObjectNode> serviceAccount(String namespace, String name);

    Optional<ObjectNode> pod(String namespace, String name);

    Optional<ObjectNode> secret(String namespace, String name);

    Optional<ObjectNode> node(String name);
}
