package io.kubelix.resource.certificates;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * A CertificateSigningRequest's {@code status.conditions}, as kube's certificates helpers and
 * strategies read and write them: Approved, Denied and Failed are the conditions that decide a
 * request, and each condition gets its times from the server when the client leaves them out.
 */
final class CSRConditions {
    static final String APPROVED = "Approved";
    static final String DENIED = "Denied";
    static final String FAILED = "Failed";

    private CSRConditions() {
    }

    /** The request's conditions, or an empty array when it has none. */
    static JsonNode of(JsonNode csr) {
        return csr.path("status").path("conditions");
    }

    /** The indices of the conditions of {@code type}, in order. */
    static List<Integer> indices(JsonNode csr, String type) {
        List<Integer> found = new ArrayList<>();
        JsonNode conditions = of(csr);
        for (int i = 0; i < conditions.size(); i++) {
            if (type.equals(conditions.get(i).path("type").asText(""))) {
                found.add(i);
            }
        }
        return found;
    }

    /** kube's HasTrueCondition: a condition of {@code type} whose status is True. */
    static boolean hasTrue(JsonNode csr, String type) {
        for (JsonNode c : of(csr)) {
            if (type.equals(c.path("type").asText("")) && "True".equals(c.path("status").asText(""))) {
                return true;
            }
        }
        return false;
    }

    /** kube's IsCertificateRequestApproved: approved and not denied. */
    static boolean approved(JsonNode csr) {
        return hasTrue(csr, APPROVED) && !hasTrue(csr, DENIED);
    }

    /**
     * kube's preserveConditionInstances: the conditions of {@code type} in {@code obj} become those
     * of {@code old}, when there are as many; when some were added or removed nothing is kept, and
     * validation refuses the change.
     */
    static void preserve(ObjectNode obj, JsonNode old, String type) {
        List<Integer> oldIndices = indices(old, type);
        List<Integer> newIndices = indices(obj, type);
        if (oldIndices.size() != newIndices.size() || !(of(obj) instanceof ArrayNode conditions)) {
            return;
        }
        for (int i = 0; i < oldIndices.size(); i++) {
            conditions.set(newIndices.get(i), of(old).get(oldIndices.get(i)).deepCopy());
        }
    }

    /**
     * kube's populateConditionTimestamps: a condition without {@code lastUpdateTime} gets now; one
     * without {@code lastTransitionTime} keeps that of an old condition of the same type and status,
     * else gets now.
     */
    static void populateTimestamps(ObjectNode obj, JsonNode old, Instant now) {
        String time = now.truncatedTo(ChronoUnit.SECONDS).toString();
        for (JsonNode node : of(obj)) {
            if (!(node instanceof ObjectNode c)) {
                continue;
            }
            if (unset(c, "lastUpdateTime")) {
                c.put("lastUpdateTime", time);
            }
            if (unset(c, "lastTransitionTime")) {
                String transition = time;
                for (JsonNode o : old == null ? List.<JsonNode>of() : of(old)) {
                    if (o.path("type").equals(c.path("type")) && o.path("status").equals(c.path("status"))
                            && !unset(o, "lastTransitionTime")) {
                        transition = o.path("lastTransitionTime").asText();
                        break;
                    }
                }
                c.put("lastTransitionTime", transition);
            }
        }
    }

    private static boolean unset(JsonNode condition, String field) {
        JsonNode v = condition.get(field);
        return v == null || v.isNull() || v.asText("").isEmpty();
    }

    /**
     * The printer's CONDITION cell (kube's extractCSRStatus): Denied, Approved or Pending, then
     * {@code ,Failed} and {@code ,Issued} when they apply.
     */
    static String summary(JsonNode csr) {
        boolean approved = false;
        boolean denied = false;
        boolean failed = false;
        for (JsonNode c : of(csr)) {
            switch (c.path("type").asText("")) {
                case APPROVED -> approved = true;
                case DENIED -> denied = true;
                case FAILED -> failed = true;
                default -> { }
            }
        }
        String status = denied ? "Denied" : approved ? "Approved" : "Pending";
        if (failed) {
            status += ",Failed";
        }
        if (!csr.path("status").path("certificate").asText("").isEmpty()) {
            status += ",Issued";
        }
        return status;
    }
}
