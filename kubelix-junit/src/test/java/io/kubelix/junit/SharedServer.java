package io.kubelix.junit;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The servers the two shared-server test classes were given, whichever of them runs first. */
final class SharedServer {
    static final Set<KubelixServer> SEEN = ConcurrentHashMap.newKeySet();

    private SharedServer() {
    }
}
