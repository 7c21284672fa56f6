package io.kubelix.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/** Reading pod specs as the checks do, and kube's wording helpers ({@code policy/helpers.go}). */
final class PodSpecs {
    private PodSpecs() {
    }

    /** The init containers, containers and ephemeral containers, in that order (kube's {@code visitContainers}). */
    static List<JsonNode> containers(JsonNode spec) {
        List<JsonNode> all = new ArrayList<>();
        for (String field : new String[]{"initContainers", "containers", "ephemeralContainers"}) {
            spec.path(field).forEach(all::add);
        }
        return all;
    }

    static String name(JsonNode container) {
        return container.path("name").asText();
    }

    /** The container's or pod's {@code securityContext.<field>}, or null when unset. */
    static JsonNode securityContext(JsonNode owner, String field) {
        JsonNode v = owner.path("securityContext").path(field);
        return v.isMissingNode() || v.isNull() ? null : v;
    }

    /**
     * Who sets {@code securityContext.<field>} to a profile whose {@code type} {@code allowed} refuses:
     * {@code pod}, then {@code container(s) "a", "b"}; the refused types are added to {@code badTypes}.
     */
    static List<String> badProfileSetters(JsonNode spec, String field, Predicate<String> allowed, Set<String> badTypes) {
        List<String> setters = new ArrayList<>();
        JsonNode podProfile = securityContext(spec, field);
        if (podProfile != null && !allowed.test(podProfile.path("type").asText(""))) {
            setters.add("pod");
            badTypes.add(podProfile.path("type").asText(""));
        }
        List<String> bad = new ArrayList<>();
        for (JsonNode c : containers(spec)) {
            JsonNode profile = securityContext(c, field);
            if (profile != null && !allowed.test(profile.path("type").asText(""))) {
                bad.add(name(c));
                badTypes.add(profile.path("type").asText(""));
            }
        }
        if (!bad.isEmpty()) {
            setters.add(pluralize("container", "containers", bad.size()) + " " + joinQuote(bad));
        }
        return setters;
    }

    static boolean isTrue(JsonNode node) {
        return node != null && node.isBoolean() && node.booleanValue();
    }

    /** Whether {@code node} has {@code field} set to something other than null. */
    static boolean has(JsonNode node, String field) {
        return node.hasNonNull(field);
    }

    /** kube's {@code joinQuote}: {@code "a", "b"}. */
    static String joinQuote(Collection<String> items) {
        if (items.isEmpty()) {
            return "";
        }
        return "\"" + String.join("\", \"", items) + "\"";
    }

    /** kube's {@code pluralize}. */
    static String pluralize(String singular, String plural, int count) {
        return count == 1 ? singular : plural;
    }

    /** The pod runs in a user namespace ({@code hostUsers: false}), which relaxes some checks from 1.35 on. */
    static boolean userNamespace(JsonNode spec) {
        JsonNode hostUsers = spec.path("hostUsers");
        return hostUsers.isBoolean() && !hostUsers.booleanValue();
    }

    /** The pod declares it runs on Windows ({@code spec.os.name: windows}). */
    static boolean windows(JsonNode spec) {
        return "windows".equals(spec.path("os").path("name").asText(null));
    }

    /** Go's {@code %q} of a string: quoted, with quotes, backslashes and control characters escaped. */
    static String goQuote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        b.append(String.format("\\x%02x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
