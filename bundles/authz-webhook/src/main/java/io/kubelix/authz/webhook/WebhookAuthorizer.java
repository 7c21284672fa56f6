package io.kubelix.authz.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.authz.Authorizer;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.kubelix.support.webhook.WebhookKubeconfig;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * kube-apiserver's webhook authorizer: each request's attributes go to the remote service as an
 * {@code authorization.k8s.io} {@code SubjectAccessReview} ({@code v1}, or {@code v1beta1} when
 * configured so); {@code status.allowed} allows, {@code status.denied} denies, anything else has no
 * opinion, with the service's reason. A failed call decides as the failure policy says (no opinion,
 * or deny), and is not cached. With match conditions, only requests they match are sent. Answers
 * are cached per review, allowed ones for the authorized TTL (5 min by default) and the others for
 * the unauthorized TTL (30 s), as kube's, in at most 10,000 entries.
 */
final class WebhookAuthorizer implements Authorizer {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookAuthorizer.class);
    private static final int CACHE_SIZE = 10_000;
    private static final AuthorizationDecision NO_OPINION =
            new AuthorizationDecision(AuthorizationDecision.Decision.NO_OPINION, "");

    /**
     * One webhook's settings, as an AuthorizationConfiguration entry gives them.
     *
     * @param name           the entry's name, in log lines
     * @param authorizedTtl  how long an allowed answer is kept; zero: not cached
     * @param unauthorizedTtl how long another answer is kept; zero: not cached
     * @param version        the SubjectAccessReview version sent, {@code v1} or {@code v1beta1}
     * @param denyOnFailure  kube's {@code failurePolicy: Deny}; otherwise a failure has no opinion
     */
    record Settings(String name, Duration timeout, Duration authorizedTtl, Duration unauthorizedTtl, String version,
                    boolean denyOnFailure, MatchConditions matchConditions) {
        /** What {@code --authorization-webhook-*} flags give: kube's defaults of its legacy webhook. */
        static Settings legacy(Duration authorizedTtl, Duration unauthorizedTtl) {
            return new Settings("default", Duration.ofSeconds(30), authorizedTtl, unauthorizedTtl, "v1", false,
                    MatchConditions.NONE);
        }
    }

    private record Cached(AuthorizationDecision decision, long expiresAt) {
    }

    private final WebhookKubeconfig target;
    private final HttpClient client;
    private final ObjectMapper json;
    private final Settings settings;
    private final long authorizedTtlNanos;
    private final long unauthorizedTtlNanos;
    private final LongSupplier nanoTime;
    private final Map<String, Cached> cache = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
            return size() > CACHE_SIZE;
        }
    };

    WebhookAuthorizer(WebhookKubeconfig target, HttpClient client, ObjectMapper json, Duration authorizedTtl,
                      Duration unauthorizedTtl, LongSupplier nanoTime) {
        this(target, client, json, Settings.legacy(authorizedTtl, unauthorizedTtl), nanoTime);
    }

    WebhookAuthorizer(WebhookKubeconfig target, HttpClient client, ObjectMapper json, Settings settings,
                      LongSupplier nanoTime) {
        this.target = target;
        this.client = client;
        this.json = json;
        this.settings = settings;
        this.authorizedTtlNanos = settings.authorizedTtl().toNanos();
        this.unauthorizedTtlNanos = settings.unauthorizedTtl().toNanos();
        this.nanoTime = nanoTime;
    }

    @Override
    public AuthorizationDecision authorize(UserInfo user, RequestInfo request) {
        ObjectNode review = review(user, request);
        // Conditions see the v1 spec whatever version is sent, as kube's matchConditionSubjectAccessReviewVersion.
        List<String> failures = new ArrayList<>(0);
        switch (settings.matchConditions().test(review.path("spec"), failures)) {
            case NO -> {
                return NO_OPINION;
            }
            case ERROR -> {
                LOG.warn("authorization webhook {}: match conditions failed: {}", settings.name(), failures);
                return failure();
            }
            default -> {
            }
        }
        if (settings.version().equals("v1beta1")) {
            asV1beta1(review);
        }
        String key = review.path("spec").toString();
        long now = nanoTime.getAsLong();
        synchronized (cache) {
            Cached cached = cache.get(key);
            if (cached != null && now - cached.expiresAt() < 0) {
                return cached.decision();
            }
        }
        AuthorizationDecision decision;
        try {
            decision = ask(review);
        } catch (Exception e) {
            // A failed call is no answer and is not cached: the next request asks again.
            LOG.warn("authorization webhook {} ({}) failed: {}", settings.name(), target.server(), e.toString());
            return settings.denyOnFailure() ? failure() : new AuthorizationDecision(
                    AuthorizationDecision.Decision.NO_OPINION, "authorization webhook error: " + e.getMessage());
        }
        long ttl = decision.decision() == AuthorizationDecision.Decision.ALLOW ? authorizedTtlNanos : unauthorizedTtlNanos;
        if (ttl > 0) {
            synchronized (cache) {
                cache.put(key, new Cached(decision, now + ttl));
            }
        }
        return decision;
    }

    /** kube's decisionOnError, with no reason as kube gives none. */
    private AuthorizationDecision failure() {
        return settings.denyOnFailure() ? AuthorizationDecision.deny("") : NO_OPINION;
    }

    /** authorization.k8s.io/v1beta1 names the groups {@code group}; the rest is as v1. */
    private static void asV1beta1(ObjectNode review) {
        review.put("apiVersion", "authorization.k8s.io/v1beta1");
        ObjectNode spec = (ObjectNode) review.get("spec");
        spec.set("group", spec.remove("groups"));
    }

    private AuthorizationDecision ask(ObjectNode review) throws Exception {
        HttpRequest.Builder post = HttpRequest.newBuilder(target.server()).timeout(settings.timeout())
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(review)));
        if (target.token() != null) {
            post.header("Authorization", "Bearer " + target.token());
        }
        HttpResponse<byte[]> response = client.send(post.build(), HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException("HTTP " + response.statusCode());
        }
        JsonNode status = json.readTree(response.body()).path("status");
        String reason = status.path("reason").asText("");
        // An answer both allowed and denied is a denial, as kube reads it.
        if (status.path("denied").asBoolean(false)) {
            return AuthorizationDecision.deny(reason);
        }
        if (status.path("allowed").asBoolean(false)) {
            return AuthorizationDecision.allow(reason);
        }
        return new AuthorizationDecision(AuthorizationDecision.Decision.NO_OPINION, reason);
    }

    /** The SubjectAccessReview kube's webhook authorizer sends for a request. */
    ObjectNode review(UserInfo user, RequestInfo request) {
        ObjectNode review = json.createObjectNode();
        review.put("apiVersion", "authorization.k8s.io/v1").put("kind", "SubjectAccessReview");
        ObjectNode spec = review.putObject("spec");
        if (request.resourceRequest()) {
            ObjectNode a = spec.putObject("resourceAttributes");
            putIfSet(a, "namespace", request.namespace());
            putIfSet(a, "verb", request.verb());
            putIfSet(a, "group", request.apiGroup());
            putIfSet(a, "version", request.apiVersion());
            putIfSet(a, "resource", request.resource());
            putIfSet(a, "subresource", request.subresource());
            putIfSet(a, "name", request.name());
        } else {
            spec.putObject("nonResourceAttributes").put("path", request.path()).put("verb", request.verb());
        }
        spec.put("user", user.name());
        strings(spec.putArray("groups"), user.groups());
        if (!user.uid().isEmpty()) {
            spec.put("uid", user.uid());
        }
        if (!user.extra().isEmpty()) {
            ObjectNode extra = spec.putObject("extra");
            user.extra().forEach((k, v) -> strings(extra.putArray(k), v));
        }
        return review;
    }

    private static void putIfSet(ObjectNode node, String field, String value) {
        if (value != null && !value.isEmpty()) {
            node.put(field, value);
        }
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }
}
