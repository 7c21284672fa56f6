package io.kubelix.resource.networking;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.util.ArrayList;
import java.util.List;

/**
 * The strategies of the networking resources (kube's ingressStrategy, ingressStatusStrategy,
 * ingressClassStrategy, networkPolicyStrategy): every write is defaulted as kube defaults each
 * decoded body, and validated as kube validates the kind.
 */
final class NetworkingStrategies {
    private NetworkingStrategies() {
    }

    /** An ingress starts with an empty load balancer status, which the main resource keeps. */
    static final class Ingress implements RESTCreateStrategy, RESTUpdateStrategy {
        @Override
        public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
            obj.putObject("status").putObject("loadBalancer");
        }

        @Override
        public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
            return IngressValidation.create(obj);
        }

        @Override
        public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            StatusStrategies.resetStatus(obj, old);
        }

        @Override
        public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            return IngressValidation.update(obj, old);
        }
    }

    /** The ingress {@code status} subresource: only the status changes, and its addresses must be valid. */
    static final class IngressStatus implements RESTUpdateStrategy {
        @Override
        public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            StatusStrategies.keepOnlyStatus(obj, old);
        }

        @Override
        public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            return IngressValidation.status(obj.path("status"));
        }
    }

    /** An ingress class: a parameters reference defaults to scope Cluster, and the controller never changes. */
    static final class IngressClass implements RESTCreateStrategy, RESTUpdateStrategy {
        @Override
        public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
            defaults(obj);
        }

        @Override
        public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
            return IngressClassValidation.spec(obj.path("spec"));
        }

        @Override
        public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            defaults(obj);
        }

        @Override
        public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            List<FieldError> errs = new ArrayList<>(IngressClassValidation.spec(obj.path("spec")));
            String controller = obj.path("spec").path("controller").asText("");
            if (!controller.equals(old.path("spec").path("controller").asText(""))) {
                errs.add(FieldError.invalid("spec.controller", controller, "field is immutable"));
            }
            return errs;
        }

        /** SetDefaults_IngressClass. */
        private static void defaults(ObjectNode obj) {
            if (obj.path("spec").get("parameters") instanceof ObjectNode parameters && !parameters.hasNonNull("scope")) {
                parameters.put("scope", "Cluster");
            }
        }
    }

    /**
     * A network policy: ports default to TCP and, without policyTypes, the policy is an Ingress
     * one, and an Egress one too when it has egress rules (SetDefaults_NetworkPolicy); a missing
     * podSelector is the empty one kube writes.
     */
    static final class NetworkPolicy implements RESTCreateStrategy, RESTUpdateStrategy {
        @Override
        public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
            defaults(obj);
        }

        @Override
        public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
            return NetworkPolicyValidation.spec(obj.path("spec"));
        }

        @Override
        public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            defaults(obj);
        }

        @Override
        public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            return NetworkPolicyValidation.spec(obj.path("spec"));
        }

        static void defaults(ObjectNode obj) {
            JsonNode s = obj.get("spec");
            if (s == null || s.isNull()) {
                s = obj.putObject("spec");
            }
            if (!(s instanceof ObjectNode spec)) {
                return;
            }
            // podSelector is a Go value (no omitempty): an absent one is the empty selector, every pod
            if (!spec.hasNonNull("podSelector")) {
                spec.putObject("podSelector");
            }
            for (String direction : new String[] {"ingress", "egress"}) {
                for (JsonNode rule : spec.path(direction)) {
                    for (JsonNode port : rule.path("ports")) {
                        if (port instanceof ObjectNode p && !p.hasNonNull("protocol")) {
                            p.put("protocol", "TCP");
                        }
                    }
                }
            }
            if (spec.path("policyTypes").isEmpty()) {
                var types = spec.putArray("policyTypes").add("Ingress");
                if (!spec.path("egress").isEmpty()) {
                    types.add("Egress");
                }
            }
        }
    }
}
