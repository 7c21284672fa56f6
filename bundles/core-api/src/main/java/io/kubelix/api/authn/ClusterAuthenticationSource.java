package io.kubelix.api.authn;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * A whiteboard service of an authenticator that tells whom it trusts, so the server can publish it
 * for extension API servers ({@code kube-system/extension-apiserver-authentication}, which kube's
 * cluster-authentication-trust controller keeps). The server combines what every source says;
 * a source that comes, goes or is reconfigured updates the ConfigMap, as does a change of the
 * files it names.
 */
@ConsumerType
public interface ClusterAuthenticationSource {

    /** Whom this authenticator trusts now. */
    ClusterAuthenticationInfo clusterAuthenticationInfo();
}
