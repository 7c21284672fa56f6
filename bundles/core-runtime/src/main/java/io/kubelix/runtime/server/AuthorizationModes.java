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

    private AuthorizationModes(List<String> modes, PluginSwaps swaps) {
        this.modes = modes;
        for (String mode : modes) {
            byMode.put(mode, new RankedServices<>(swaps));
        }
        unnamed = new RankedServices<>(swaps);
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

    /** The authorizers to ask, in order. */
    @Override
    public List<Authorizer> get() {
        List<Authorizer> all = new ArrayList<>(4);
        byMode.forEach((mode, services) -> {
            if (mode.equals(ALWAYS_DENY)) {
                all.add(DENY_ALL);
            } else {
                all.addAll(services.get());
            }
        });
        all.addAll(unnamed.get());
        return all;
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
