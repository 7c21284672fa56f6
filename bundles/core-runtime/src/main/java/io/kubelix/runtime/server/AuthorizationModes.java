package io.kubelix.runtime.server;

import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.authz.Authorizer;
import io.kubelix.api.authz.RuleResolver;
import io.kubelix.api.authz.SubjectRules;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * kube-apiserver's {@code --authorization-mode}: the modes asked, in order (default {@code RBAC}).
 * Each mode is served by the authorizer plugins registered under its name ({@link Authorizer#MODE});
 * {@code AlwaysDeny} is built in. Authorizers that name no mode (a custom plugin's) are asked after
 * the modes. A configured mode without an installed authorizer keeps the server from being ready,
 * with a message naming it.
 */
final class AuthorizationModes implements Supplier<List<Authorizer>> {
    static final String ALWAYS_ALLOW = "AlwaysAllow";
    static final String ALWAYS_DENY = "AlwaysDeny";
    static final String RBAC = "RBAC";
    private static final List<String> KNOWN = List.of(ALWAYS_ALLOW, ALWAYS_DENY, "ABAC", "Webhook", RBAC, "Node");
    private static final Authorizer DENY_ALL = new AlwaysDeny();
    private static final List<Authorizer> ALWAYS_DENY_LIST = List.of(DENY_ALL);

    /** kube's AlwaysDeny: denies everything, and lists no rules. */
    private static final class AlwaysDeny implements Authorizer, RuleResolver {
        @Override
        public AuthorizationDecision authorize(UserInfo user, RequestInfo request) {
            return AuthorizationDecision.deny("");
        }

        @Override
        public SubjectRules rulesFor(UserInfo user, String namespace) {
            return SubjectRules.none();
        }
    }

    private final List<String> modes;
    private final Map<String, RankedServices<Authorizer>> byMode = new LinkedHashMap<>();
    private final RankedServices<Authorizer> unnamed;
    /** Where the authorizers come from, in order: each mode's (null for AlwaysDeny), then the unnamed. */
    private final List<RankedServices<Authorizer>> sources = new ArrayList<>();
    private volatile Combined combined;

    private AuthorizationModes(List<String> modes, PluginSwaps swaps) {
        this.modes = modes;
        for (String mode : modes) {
            byMode.put(mode, new RankedServices<>(swaps));
        }
        unnamed = new RankedServices<>(swaps);
        byMode.forEach((mode, services) -> sources.add(mode.equals(ALWAYS_DENY) ? null : services));
        sources.add(unnamed);
    }

    /** Parses the setting's value, a comma-separated list, with kube-apiserver's messages for a bad one. */
    static AuthorizationModes parse(String value, PluginSwaps swaps) {
        List<String> modes = new ArrayList<>();
        for (String mode : value.split(",")) {
            String m = mode.trim();
            if (m.isEmpty()) {
                continue;
            }
            if (!KNOWN.contains(m)) {
                throw new IllegalArgumentException("authorization-mode \"" + m + "\" is not a valid mode (valid: "
                        + String.join(", ", KNOWN) + ")");
            }
            if (modes.contains(m)) {
                throw new IllegalArgumentException("authorization-mode \"" + m + "\" has mode specified more than once");
            }
            modes.add(m);
        }
        if (modes.isEmpty()) {
            throw new IllegalArgumentException("at least one authorization-mode must be passed");
        }
        return new AuthorizationModes(List.copyOf(modes), swaps);
    }

    List<String> modes() {
        return modes;
    }

    /**
     * kube-apiserver turns anonymous requests off with {@code AlwaysAllow}: they would be allowed
     * everything.
     */
    boolean allowsAnonymous() {
        return !modes.contains(ALWAYS_ALLOW);
    }

    void add(Authorizer authorizer, Map<String, ?> properties) {
        services(properties).add(authorizer, properties);
    }

    /** Answers whether the authorizer is being swapped for a new revision of its plugin. */
    boolean remove(Authorizer authorizer, Map<String, ?> properties) {
        return services(properties).remove(authorizer, properties);
    }

    /** Whether an authorizer of this mode is asked: its mode is configured, or it names none. */
    boolean asks(Map<String, ?> properties) {
        Object mode = properties.get(Authorizer.MODE);
        return mode == null || byMode.containsKey(mode.toString());
    }

    /** The configured modes that no installed authorizer serves. */
    List<String> unserved() {
        List<String> missing = new ArrayList<>();
        byMode.forEach((mode, services) -> {
            if (!mode.equals(ALWAYS_DENY) && services.get().isEmpty()) {
                missing.add(mode);
            }
        });
        return missing;
    }

    /**
     * The authorizers to ask, in order. Asked on every request: the combined list is kept and
     * rebuilt only when one of the modes' lists changed (each is an immutable snapshot, replaced
     * when an authorizer comes or goes), so a request allocates nothing here.
     */
    @Override
    public List<Authorizer> get() {
        Combined c = combined;
        if (c != null && c.current(this)) {
            return c.all();
        }
        List<?>[] parts = new List<?>[sources.size()];
        List<Authorizer> all = new ArrayList<>(4);
        for (int i = 0; i < parts.length; i++) {
            parts[i] = part(i);
            for (Object a : parts[i]) {
                all.add((Authorizer) a);
            }
        }
        Combined rebuilt = new Combined(parts, List.copyOf(all));
        combined = rebuilt;
        return rebuilt.all();
    }

    private List<?> part(int i) {
        RankedServices<Authorizer> source = sources.get(i);
        return source == null ? ALWAYS_DENY_LIST : source.get();
    }

    /** The lists the combined list was built from (compared by identity), and it. */
    private record Combined(List<?>[] parts, List<Authorizer> all) {
        boolean current(AuthorizationModes modes) {
            for (int i = 0; i < parts.length; i++) {
                if (modes.part(i) != parts[i]) {
                    return false;
                }
            }
            return true;
        }
    }

    private RankedServices<Authorizer> services(Map<String, ?> properties) {
        Object mode = properties.get(Authorizer.MODE);
        if (mode == null) {
            return unnamed;
        }
        RankedServices<Authorizer> services = byMode.get(mode.toString());
        // An authorizer of a mode not configured is kept nowhere: it is never asked.
        return services == null ? new RankedServices<>() : services;
    }
}
