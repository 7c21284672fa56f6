package io.kubelix.runtime.endpoints.openapi;

import io.kubelix.runtime.codec.MediaType;

import java.util.Comparator;
import java.util.List;

/**
 * Which form of {@code /openapi/v2} an Accept header asks for, as kube-openapi's handler decides:
 * the ranges are taken by quality, then concrete before wildcard, and the first that names JSON,
 * gnostic's protobuf type or its older {@code @v1.0} spelling, or a wildcard (JSON) wins. No
 * header means JSON.
 */
public final class OpenAPIV2Negotiation {
    /** What the protobuf form is served as, whichever of its two spellings was asked for. */
    public static final String PROTOBUF = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";
    private static final String PROTOBUF_DEPRECATED = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";

    public enum Format { JSON, PROTOBUF }

    private OpenAPIV2Negotiation() {
    }

    /** The form to serve, or null when the header accepts neither (406). */
    public static Format negotiate(String accept) {
        List<MediaType> ranges = MediaType.parseAccept(accept);
        if (ranges.isEmpty()) {
            return Format.JSON;
        }
        List<MediaType> ordered = ranges.stream()
                .sorted(Comparator.comparingDouble(OpenAPIV2Negotiation::quality).reversed()
                        .thenComparing(r -> r.type().startsWith("*/"))
                        .thenComparing(r -> r.type().endsWith("/*")))
                .toList();
        for (MediaType range : ordered) {
            if (quality(range) <= 0) {
                continue;
            }
            if (range.isJson()) {
                return Format.JSON;
            }
            if (range.type().equals(PROTOBUF) || range.type().equals(PROTOBUF_DEPRECATED)) {
                return Format.PROTOBUF;
            }
        }
        return null;
    }

    private static double quality(MediaType range) {
        String q = range.param("q");
        if (q == null) {
            return 1;
        }
        try {
            return Double.parseDouble(q);
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
