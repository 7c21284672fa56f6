package io.kubelix.api.authn;

import java.nio.file.Path;
import java.util.List;

/**
 * Whom an authenticator trusts, as kube-apiserver tells extension API servers in the
 * {@code kube-system/extension-apiserver-authentication} ConfigMap (kube's
 * {@code clusterauthenticationtrust.ClusterAuthenticationInfo}): the CA file client certificates
 * are verified with ({@code --client-ca-file}), and the front proxies' request header settings
 * ({@code --requestheader-*}). A file is named rather than read, so the ConfigMap follows it as it
 * changes on disk; null when the authenticator has none.
 *
 * @param clientCAFile              PEM CA certificates of client certificates, or null
 * @param requestHeaderCAFile       PEM CA certificates of the front proxies' client certificates, or null
 * @param requestHeaderAllowedNames common names a front proxy's certificate may have; empty: any
 * @param usernameHeaders           headers holding the user name
 * @param uidHeaders                headers holding the user's UID
 * @param groupHeaders              headers holding groups
 * @param extraHeaderPrefixes       prefixes of the headers holding extras
 */
public record ClusterAuthenticationInfo(Path clientCAFile, Path requestHeaderCAFile,
                                        List<String> requestHeaderAllowedNames, List<String> usernameHeaders,
                                        List<String> uidHeaders, List<String> groupHeaders,
                                        List<String> extraHeaderPrefixes) {
    public ClusterAuthenticationInfo {
        requestHeaderAllowedNames = List.copyOf(requestHeaderAllowedNames);
        usernameHeaders = List.copyOf(usernameHeaders);
        uidHeaders = List.copyOf(uidHeaders);
        groupHeaders = List.copyOf(groupHeaders);
        extraHeaderPrefixes = List.copyOf(extraHeaderPrefixes);
    }

    /** What an authenticator of client certificates ({@code --client-ca-file}) trusts. */
    public static ClusterAuthenticationInfo clientCA(Path clientCAFile) {
        return new ClusterAuthenticationInfo(clientCAFile, null, List.of(), List.of(), List.of(), List.of(), List.of());
    }
}
