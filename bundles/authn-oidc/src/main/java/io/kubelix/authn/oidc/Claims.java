package io.kubelix.authn.oidc;

import java.time.Instant;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.Map;

/** A verified token's claims, read as kube's JSON unmarshalling of them reads them. */
record Claims(Map<String, Object> values) {

    boolean has(String name) {
        return values.containsKey(name);
    }

    Object get(String name) {
        return values.get(name);
    }

    /** A string claim; a claim of another type is an error, as unmarshalling into a Go string is. */
    String string(String name) throws IssuerVerifier.RefusedException {
        Object v = values.get(name);
        if (v == null && !values.containsKey(name)) {
            throw new IssuerVerifier.RefusedException("claim not present");
        }
        if (!(v instanceof String s)) {
            throw new IssuerVerifier.RefusedException("json: cannot unmarshal " + jsonType(v) + " into Go value of type string");
        }
        return s;
    }

    /** {@code aud}: a string or a list of strings. */
    List<String> audiences() {
        Object aud = values.get("aud");
        if (aud instanceof String s) {
            return List.of(s);
        }
        if (aud instanceof Collection<?> c) {
            return c.stream().filter(String.class::isInstance).map(String.class::cast).toList();
        }
        return List.of();
    }

    /** A NumericDate claim (seconds since the epoch), or null. */
    Instant time(String name) {
        Object v = values.get(name);
        if (v instanceof Number n) {
            return Instant.ofEpochSecond(n.longValue());
        }
        if (v instanceof Date d) {
            return d.toInstant();
        }
        return null;
    }

    static String jsonType(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Boolean) {
            return "bool";
        }
        if (v instanceof Number) {
            return "number";
        }
        if (v instanceof Collection<?>) {
            return "array";
        }
        if (v instanceof Map<?, ?>) {
            return "object";
        }
        return "string";
    }
}
