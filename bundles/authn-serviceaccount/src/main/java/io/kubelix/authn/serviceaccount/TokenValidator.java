package io.kubelix.authn.serviceaccount;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * kube's service account token {@code validator}: a token is valid only while the service
 * account it names exists with the uid it names, and so does the pod, secret or node it is bound
 * to; an object being deleted for longer than {@link #DELETION_GRACE} invalidates it too. The
 * reasons are kube's words, for the log; the client sees only a 401.
 */
final class TokenValidator {
    /** kube's {@code invalidIfDeletedBefore}: how long a token outlives the start of its object's deletion. */
    static final Duration DELETION_GRACE = Duration.ofSeconds(60);

    private final ServiceAccountTokenGetter getter;
    private final Clock clock;

    TokenValidator(ServiceAccountTokenGetter getter, Clock clock) {
        this.getter = getter;
        this.clock = clock;
    }

    /**
     * Why the token no longer stands, or null when it does.
     *
     * @param kubernetes the token's {@code kubernetes.io} claim
     */
    String invalidated(String namespace, String name, String uid, Map<String, Object> kubernetes) {
        Instant deletedBefore = clock.instant().minus(DELETION_GRACE);
        Optional<ObjectNode> account = getter.serviceAccount(namespace, name);
        if (account.isEmpty()) {
            return "serviceaccounts \"" + name + "\" not found";
        }
        if (deletedBefore(account.get(), deletedBefore)) {
            return "service account token has been invalidated";
        }
        if (!uid.equals(uid(account.get()))) {
            return "service account UID (" + uid(account.get()) + ") does not match claim (" + uid + ")";
        }
        String why = bound("secret", kubernetes, ref -> getter.secret(namespace, ref), deletedBefore);
        if (why == null) {
            why = bound("pod", kubernetes, ref -> getter.pod(namespace, ref), deletedBefore);
        }
        if (why == null) {
            why = bound("node", kubernetes, getter::node, deletedBefore);
        }
        return why;
    }

    /** Checks the object of kind {@code claim} the token is bound to, if it is bound to one. */
    private static String bound(String claim, Map<String, Object> kubernetes,
                                Function<String, Optional<ObjectNode>> get, Instant deletedBefore) {
        if (!(kubernetes.get(claim) instanceof Map<?, ?> ref)) {
            return null;
        }
        String refName = ref.get("name") instanceof String s ? s : "";
        String refUid = ref.get("uid") instanceof String s ? s : "";
        Optional<ObjectNode> obj = get.apply(refName);
        if (obj.isEmpty() || deletedBefore(obj.get(), deletedBefore)) {
            return "service account token has been invalidated";
        }
        if (!refUid.equals(uid(obj.get()))) {
            return claim + " UID (" + uid(obj.get()) + ") does not match service account " + claim + " ref claim ("
                    + refUid + ")";
        }
        return null;
    }

    private static boolean deletedBefore(ObjectNode obj, Instant deadline) {
        JsonNode ts = obj.path("metadata").get("deletionTimestamp");
        if (ts == null || !ts.isTextual()) {
            return false;
        }
        try {
            return Instant.parse(ts.asText()).isBefore(deadline);
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static String uid(ObjectNode obj) {
        return obj.path("metadata").path("uid").asText("");
    }
}
