package io.kubelix.admission.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.SharedIndexInformer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The policies of one kind that have bindings, each with the bindings that name it (kube's policy
 * source for its generic dispatcher): read through the policies' and bindings' informers, rebuilt
 * when either has seen a change, a policy compiled again only when its resourceVersion changed.
 * Policies and their bindings come in name order.
 *
 * @param <C> a compiled policy
 */
final class PolicySource<C> {
    /** How long admission waits for the first list, as kube's plugins do. */
    private static final Duration READY_WAIT = Duration.ofSeconds(10);

    /** A compiled policy and the bindings that name it, in name order. */
    record Hook<C>(C policy, List<ObjectNode> bindings) {
    }

    private record Snapshot<C>(String resourceVersions, List<Hook<C>> hooks, Map<String, Compiled<C>> compiled) {
    }

    private record Compiled<C>(String resourceVersion, C policy) {
    }

    private final SharedIndexInformer policies;
    private final SharedIndexInformer bindings;
    private final Function<ObjectNode, C> compile;
    private volatile Snapshot<C> snapshot = new Snapshot<>("", List.of(), Map.of());

    PolicySource(SharedIndexInformer policies, SharedIndexInformer bindings, Function<ObjectNode, C> compile) {
        this.policies = policies;
        this.bindings = bindings;
        this.compile = compile;
    }

    /**
     * The current policies with their bindings.
     *
     * @throws StatusException kube's 403 {@code not yet ready to handle request} when the informers
     *                         have not listed within 10 s
     */
    List<Hook<C>> hooks(AdmissionAttributes a) {
        if (!policies.hasSynced() || !bindings.hasSynced()) {
            try {
                if (!policies.waitForSync(READY_WAIT) || !bindings.waitForSync(READY_WAIT)) {
                    throw notReady(a);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw notReady(a);
            }
        }
        String rv = policies.lastSyncResourceVersion() + "/" + bindings.lastSyncResourceVersion();
        Snapshot<C> s = snapshot;
        if (rv.equals(s.resourceVersions())) {
            return s.hooks();
        }
        Map<String, List<ObjectNode>> byPolicy = new HashMap<>();
        for (ObjectNode b : bindings.lister().list()) {
            byPolicy.computeIfAbsent(b.path("spec").path("policyName").asText(), k -> new ArrayList<>()).add(b);
        }
        List<Hook<C>> hooks = new ArrayList<>();
        Map<String, Compiled<C>> compiled = new HashMap<>();
        List<ObjectNode> all = new ArrayList<>(policies.lister().list());
        all.sort(Comparator.comparing(PolicySource::name));
        for (ObjectNode p : all) {
            String name = name(p);
            List<ObjectNode> bound = byPolicy.getOrDefault(name, List.of());
            if (bound.isEmpty()) {
                continue;
            }
            String resourceVersion = p.path("metadata").path("resourceVersion").asText();
            Compiled<C> c = s.compiled().get(name);
            if (c == null || !c.resourceVersion().equals(resourceVersion)) {
                c = new Compiled<>(resourceVersion, compile.apply(p));
            }
            compiled.put(name, c);
            bound.sort(Comparator.comparing(PolicySource::name));
            hooks.add(new Hook<>(c.policy(), List.copyOf(bound)));
        }
        snapshot = new Snapshot<>(rv, List.copyOf(hooks), Map.copyOf(compiled));
        return snapshot.hooks();
    }

    private static String name(JsonNode o) {
        return o.path("metadata").path("name").asText();
    }

    private static StatusException notReady(AdmissionAttributes a) {
        return StatusException.forbidden(a.resource().groupResource(), forbiddenName(a), "not yet ready to handle request");
    }

    /** The name kube's {@code admission.NewForbidden} gives: the object's name or generateName, else "Unknown". */
    static String forbiddenName(AdmissionAttributes a) {
        if (a.object() != null) {
            JsonNode meta = a.object().path("metadata");
            if (!meta.path("name").asText("").isEmpty()) {
                return meta.path("name").asText();
            }
            if (!meta.path("generateName").asText("").isEmpty()) {
                return meta.path("generateName").asText();
            }
        }
        return "Unknown";
    }
}
