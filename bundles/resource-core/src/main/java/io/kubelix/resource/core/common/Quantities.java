package io.kubelix.resource.core.common;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.support.quantity.InvalidQuantityException;
import io.kubelix.support.quantity.Quantity;

import java.math.BigDecimal;

/**
 * resource.Quantity values in objects ({@code 10Gi}, {@code 500m}, {@code 1e3}, {@code 2}), read
 * with kube's grammar ({@link Quantity}) to compare and validate amounts. A value that is no
 * quantity never gets here: the server's typed decoding answers it with kube's 400.
 */
public final class Quantities {
    private Quantities() {
    }

    /** The amount of a quantity (a string or a JSON number, as kube's UnmarshalJSON reads them), or null when it is none. */
    public static BigDecimal parse(JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        try {
            return Quantity.parseJson(json(value)).value();
        } catch (InvalidQuantityException e) {
            return null;
        }
    }

    /** What kube's UnmarshalJSON parses: a string's content, else the JSON text itself. */
    private static String json(JsonNode value) {
        return value.isTextual() ? value.asText() : value.toString();
    }

    /** The text of a quantity for messages and printers. */
    public static String text(JsonNode value) {
        return value == null || value.isNull() ? "0" : value.asText();
    }
}
