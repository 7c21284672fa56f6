package io.kubelix.resource.core.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.support.quantity.InvalidQuantityException;
import io.kubelix.support.quantity.Quantity;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * kube's quota helpers over ResourceLists (pkg/quota/v1/resources.go): lists of resource names to
 * quantities, added, compared, masked and printed as kube's admission prints them
 * ({@code requests.cpu=500m,requests.memory=1Gi}).
 */
final class ResourceLists {
    static final Quantity ONE = Quantity.of(BigDecimal.ONE, Quantity.Format.DECIMAL_SI);
    static final Quantity ZERO = Quantity.of(BigDecimal.ZERO, Quantity.Format.DECIMAL_SI);

    private ResourceLists() {
    }

    /** A resource list of an object ({@code requests}, {@code status.used}); values that are no quantity are left out. */
    static Map<String, Quantity> read(JsonNode list) {
        Map<String, Quantity> result = new TreeMap<>();
        if (list != null && list.isObject()) {
            list.fields().forEachRemaining(e -> {
                Quantity q = quantity(e.getValue());
                if (q != null) {
                    result.put(e.getKey(), q);
                }
            });
        }
        return result;
    }

    static Quantity quantity(JsonNode value) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return null;
        }
        try {
            return Quantity.parseJson(value.isTextual() ? value.asText() : value.toString());
        } catch (InvalidQuantityException e) {
            return null;
        }
    }

    /** {@code into[r] += add[r]} for every resource. */
    static void add(Map<String, Quantity> into, Map<String, Quantity> add) {
        add.forEach((r, q) -> into.merge(r, q, Quantity::add));
    }

    /** kube's SubtractWithNonNegativeResult: {@code from[r] -= minus[r]}, never below zero. */
    static void subtractWithNonNegativeResult(Map<String, Quantity> from, Map<String, Quantity> minus) {
        from.replaceAll((r, q) -> {
            Quantity m = minus.get(r);
            if (m == null) {
                return q;
            }
            BigDecimal left = q.value().subtract(m.value());
            return left.signum() > 0 ? Quantity.of(left, q.format()) : ZERO;
        });
    }

    /** {@code into[r] = max(into[r], other[r])}, kube's Max. */
    static void max(Map<String, Quantity> into, Map<String, Quantity> other) {
        other.forEach((r, q) -> into.merge(r, q, (a, b) -> a.compareTo(b) >= 0 ? a : b));
    }

    /** kube's Mask: the entries whose name is in {@code names}. */
    static Map<String, Quantity> mask(Map<String, Quantity> list, Set<String> names) {
        Map<String, Quantity> result = new TreeMap<>();
        list.forEach((r, q) -> {
            if (names.contains(r)) {
                result.put(r, q);
            }
        });
        return result;
    }

    /** kube's prettyPrint: {@code name=quantity} pairs in name order, comma-separated. */
    static String pretty(Map<String, Quantity> list) {
        List<String> parts = new ArrayList<>();
        new TreeMap<>(list).forEach((r, q) -> parts.add(r + "=" + q.canonical()));
        return String.join(",", parts);
    }

    /** The list as an object of canonical quantities, as kube writes {@code status.used}. */
    static ObjectNode write(Map<String, Quantity> list) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        new TreeMap<>(list).forEach((r, q) -> node.put(r, q.canonical()));
        return node;
    }
}
