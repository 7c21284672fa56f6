package io.kubelix.admission.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.EquivalentResourceMapper;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.metrics.MetricsRegistry;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.support.admission.AdmissionAuthorizer;
import io.kubelix.support.admission.AdmissionMatcher;
import io.kubelix.support.admission.AdmissionRequests;
import io.kubelix.support.admission.MatchConditions;
import io.kubelix.support.admission.VersionedAttributes;
import io.kubelix.support.cel.CelValues;
import io.kubelix.support.webhook.AuthenticationInfoResolver;
import io.kubelix.support.webhook.ServiceResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * What both webhook admission plugins share (kube's generic {@code Webhook}): their
 * configurations, the namespaces, services and EndpointSlices they need, all read through the
 * server's informers, the matcher and the client. A webhook matched through an equivalent resource
 * ({@code matchPolicy: Equivalent}) is sent the objects converted to that resource's version.
 */
final class WebhookPlugin {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookPlugin.class);
    static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
    static final GroupVersionResource SERVICES = new GroupVersionResource("", "v1", "services");
    static final GroupVersionResource ENDPOINT_SLICES = new GroupVersionResource("discovery.k8s.io", "v1", "endpointslices");
    /** How long a namespace the cache does not have yet is waited for, before the request is a 404. */
    private static final long NAMESPACE_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private final WebhookConfigurations configurations;
    private final SharedIndexInformer namespaces;
    private final AdmissionMatcher matcher;
    private final WebhookClient client;
    private final WebhookMetrics metrics;
    /** Finds and converts equivalent resources; null in tests that need none. */
    private final EquivalentResourceMapper equivalents;
    final ObjectMapper json = new ObjectMapper();

    /** Answers match conditions' {@code authorizer} checks; null in tests. */
    private final AuthorizationChain authorization;

    WebhookPlugin(SharedInformerFactory informers, GroupVersionResource configurationResource,
                  AuthorizationChain authorization, MetricsRegistry metrics, EquivalentResourceMapper equivalents,
                  AuthenticationInfoResolver credentials) {
        this.authorization = authorization;
        this.equivalents = equivalents;
        this.metrics = new WebhookMetrics(metrics);
        this.configurations = new WebhookConfigurations(informers.forResource(configurationResource));
        this.namespaces = informers.forResource(NAMESPACES);
        this.matcher = new AdmissionMatcher(this::namespace, equivalents);
        this.client = new WebhookClient(new ServiceResolver(informers.forResource(SERVICES).lister(),
                informers.forResource(ENDPOINT_SLICES).lister()), json, credentials);
    }

    /** For tests: the parts given. */
    WebhookPlugin(WebhookConfigurations configurations, SharedIndexInformer namespaces, WebhookClient client) {
        this(configurations, namespaces, client, WebhookMetrics.NONE);
    }

    /** For tests: the parts given, with these metrics. */
    WebhookPlugin(WebhookConfigurations configurations, SharedIndexInformer namespaces, WebhookClient client,
                  WebhookMetrics metrics) {
        this(configurations, namespaces, client, metrics, null);
    }

    /** For tests: the parts given, with these metrics and equivalent resources. */
    WebhookPlugin(WebhookConfigurations configurations, SharedIndexInformer namespaces, WebhookClient client,
                  WebhookMetrics metrics, EquivalentResourceMapper equivalents) {
        this.authorization = null;
        this.metrics = metrics;
        this.equivalents = equivalents;
        this.configurations = configurations;
        this.namespaces = namespaces;
        this.matcher = new AdmissionMatcher(this::namespace, equivalents);
        this.client = client;
    }

    /**
     * kube's {@code WebhookInvocation}: a webhook to call and what it matched the request as.
     */
    record Invocation(Webhook hook, AdmissionMatcher.Match match) {
    }

    /** The request's objects as the invocation's resource serves them (kube's 500 when they cannot be converted). */
    VersionedAttributes versioned(Invocation invocation, AdmissionAttributes a) {
        return VersionedAttributes.of(a, invocation.match(), equivalents);
    }

    /** Carries a mutation of {@code v}'s object into the request's object. */
    void applyMutation(VersionedAttributes v, ObjectNode mutated) {
        v.applyTo(mutated, equivalents);
    }

    /** The webhooks called for this request, in order. */
    List<Invocation> hooksFor(AdmissionAttributes a) {
        if (AdmissionMatcher.exempt(a)) {
            return List.of();
        }
        List<Webhook> all;
        try {
            all = configurations.webhooks();
        } catch (IllegalStateException e) {
            throw StatusException.forbidden(a.resource().groupResource(), a.name(), e.getMessage());
        }
        if (all.isEmpty()) {
            return List.of();
        }
        List<Invocation> matched = new java.util.ArrayList<>();
        for (Webhook h : all) {
            AdmissionMatcher.Match m = matcher.match(h.rules(), h.matchesEquivalent(), h.namespaceSelector(),
                    h.objectSelector(), a);
            if (m != null) {
                matched.add(new Invocation(h, m));
            }
        }
        if (matched.stream().allMatch(i -> i.hook().conditions().isEmpty())) {
            return matched;
        }
        // conditions see the objects in the version each webhook matched, converted once per version
        Map<AdmissionMatcher.Match, Map<String, Object>> bindings = new HashMap<>();
        return matched.stream().filter(i -> i.hook().conditions().isEmpty() || conditionsHold(i.hook(),
                bindings.computeIfAbsent(i.match(), m -> conditionBindings(versioned(i, a))), a)).toList();
    }

    /** What match conditions see: the objects and the request, converted to CEL's values once. */
    private Map<String, Object> conditionBindings(VersionedAttributes v) {
        AdmissionAttributes a = v.attributes();
        Map<String, Object> bindings = new HashMap<>();
        bindings.put("object", CelValues.fromJson(v.object()));
        bindings.put("oldObject", CelValues.fromJson(v.oldObject()));
        bindings.put("request", CelValues.fromJson(AdmissionRequests.withObjects(v)));
        bindings.put("params", CelValues.fromJson(null));
        bindings.put("namespaceObject", CelValues.fromJson(null));
        bindings.put("variables", Map.of());
        AdmissionAuthorizer.bind(bindings, a, authorization);
        return bindings;
    }

    /**
     * kube's {@code ShouldCallHook} with match conditions: a false one skips the webhook; an error
     * skips it under {@code failurePolicy: Ignore} and otherwise refuses the request (403).
     */
    private static boolean conditionsHold(Webhook h, Map<String, Object> bindings, AdmissionAttributes a) {
        if (h.conditions().isEmpty()) {
            return true;
        }
        try {
            return h.conditions().hold(bindings);
        } catch (MatchConditions.EvaluationException e) {
            if (h.ignoresFailures()) {
                LOG.warn("Failed evaluating match conditions, failing open {}: {}", h.name(), e.getMessage());
                return false;
            }
            LOG.warn("Failed evaluating match conditions, failing closed {}: {}", h.name(), e.getMessage());
            throw StatusException.forbidden(a.resource().groupResource(), a.name(),
                    new CallingWebhookException(h.name(), e.getMessage()).getMessage());
        }
    }

    /**
     * kube's dry-run check: a webhook that may have side effects cannot be asked about a dry run,
     * and the request is refused (400), whatever its failure policy.
     */
    static void checkDryRun(Webhook hook, AdmissionAttributes a) {
        if (a.dryRun() && !hook.supportsDryRun()) {
            throw StatusException.badRequest("admission webhook \"" + hook.name() + "\" does not support dry run");
        }
    }

    /** Starts the call of {@code hook} with a review of the request as it is now, its objects as given. */
    CompletableFuture<Outcome> call(Webhook hook, VersionedAttributes v, boolean mutating) {
        AdmissionAttributes a = v.attributes();
        ObjectNode review = AdmissionReviews.request(v);
        long begin = System.nanoTime();
        return client.call(hook, review).thenApply(answer -> {
            try {
                return new Outcome(AdmissionReviews.response(hook, review, answer, mutating, json), null,
                        mutating, System.nanoTime() - begin);
            } catch (CallingWebhookException e) {
                throw new CompletionException(e);
            }
        }).exceptionally(failure -> {
            Throwable t = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            long nanos = System.nanoTime() - begin;
            if (t instanceof CallingWebhookException c) {
                return new Outcome(null, c, mutating, nanos);
            }
            if (t instanceof StatusException s) {
                String type = WebhookMetrics.type(mutating);
                metrics.rejection(hook.name(), type, a.operation().name(), WebhookMetrics.APISERVER_INTERNAL_ERROR, 0);
                metrics.call(hook.name(), type, a.operation().name(), true, 0, nanos);
                throw s;
            }
            return new Outcome(null, new CallingWebhookException(hook.name(), String.valueOf(t.getMessage())), mutating, nanos);
        });
    }

    /**
     * What a call came to: an answer, or a failure to call. A failure of a webhook whose policy is
     * {@code Ignore} is logged and forgotten; otherwise it is kube's 500.
     */
    record Outcome(AdmissionReviews.Response response, CallingWebhookException failure, boolean mutating, long nanos) {
    }

    /** The answer of a finished call, or null when it failed and its webhook ignores failures. */
    AdmissionReviews.Response answer(Webhook hook, AdmissionAttributes a, Outcome outcome) {
        String type = WebhookMetrics.type(outcome.mutating());
        String operation = a.operation().name();
        if (outcome.failure() == null) {
            AdmissionReviews.Response r = outcome.response();
            r.warnings().forEach(a.context()::addWarning);
            if (!r.allowed()) {
                StatusException denied = AdmissionReviews.denied(hook, r.status());
                metrics.rejection(hook.name(), type, operation, WebhookMetrics.NO_ERROR, denied.code());
                metrics.call(hook.name(), type, operation, true, denied.code(), outcome.nanos());
                throw denied;
            }
            metrics.call(hook.name(), type, operation, false, 200, outcome.nanos());
            return r;
        }
        if (hook.ignoresFailures()) {
            LOG.warn("Failed calling webhook, failing open {}: {} ({} {} {})", hook.name(), outcome.failure().getMessage(),
                    a.operation(), a.resource(), a.name());
            metrics.failOpen(hook.name(), type);
            metrics.call(hook.name(), type, operation, false, 0, outcome.nanos());
            return null;
        }
        metrics.rejection(hook.name(), type, operation, WebhookMetrics.CALLING_WEBHOOK_ERROR, 0);
        metrics.call(hook.name(), type, operation, true, 0, outcome.nanos());
        LOG.warn("Failed calling webhook, failing closed {}: {} ({} {} {})", hook.name(), outcome.failure().getMessage(),
                a.operation(), a.resource(), a.name());
        throw StatusException.internalError(outcome.failure().getMessage(), outcome.failure());
    }

    static Outcome await(CompletableFuture<Outcome> call) {
        try {
            return call.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /** A namespace from the informer's cache, waiting briefly for one the cache has not seen yet. */
    private ObjectNode namespace(String name) {
        try {
            if (!namespaces.hasSynced() && !namespaces.waitForSync(java.time.Duration.ofSeconds(10))) {
                throw StatusException.internalError("the namespaces are not read yet", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        long deadline = System.nanoTime() + NAMESPACE_WAIT_NANOS;
        while (true) {
            ObjectNode ns = namespaces.lister().get(name).orElse(null);
            if (ns != null || System.nanoTime() - deadline > 0) {
                return ns;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }
}
