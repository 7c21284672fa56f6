package io.kubelix.runtime.codec;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.runtime.codec.protobuf.ProtobufCodec;

import java.util.List;

/**
 * kube-apiserver's output negotiation (negotiation.NegotiateMediaTypeOptions): the Accept header's
 * ranges are tried by preference ({@link MediaType#parseAcceptByPreference}), each against the
 * serializers in kube's order, JSON, YAML and Kubernetes protobuf; the first range and serializer
 * the endpoint allows wins. {@code application/*} and {@code *}{@code /*} match JSON first.
 */
public final class MediaTypeNegotiation {
    public static final String PROTOBUF = ProtobufCodec.MEDIA_TYPE;
    /** The serializers of every resource endpoint, in kube's order. */
    public static final List<String> MEDIA_TYPES = List.of(MediaType.JSON, MediaType.YAML, PROTOBUF);

    /** What an endpoint makes of one Accept range matched by one serializer: a result, or null to try on. */
    @FunctionalInterface
    public interface Restrictions<T> {
        T accept(MediaType range, String mediaType);
    }

    private MediaTypeNegotiation() {
    }

    /** The first result {@code restrictions} gives, or null when no range of the header is allowed. */
    public static <T> T negotiate(String header, Restrictions<T> restrictions) {
        for (MediaType range : MediaType.parseAcceptByPreference(header)) {
            for (String mediaType : MEDIA_TYPES) {
                if (matches(range, mediaType)) {
                    T result = restrictions.accept(range, mediaType);
                    if (result != null) {
                        return result;
                    }
                }
            }
        }
        return null;
    }

    /**
     * The media type of a Status or other answer that no endpoint restricts (kube's
     * ErrorNegotiated): JSON when the header is empty or allows nothing.
     */
    public static String unrestricted(String header) {
        if (header == null || header.isBlank()) {
            return MediaType.JSON;
        }
        String chosen = negotiate(header, (range, mediaType) -> !converts(range) && streamAllowed(range, mediaType)
                ? mediaType : null);
        return chosen == null ? MediaType.JSON : chosen;
    }

    /** Whether the range asks for another kind ({@code as}, {@code g}, {@code v}: a Table, PartialObjectMetadata). */
    public static boolean converts(MediaType range) {
        return range.param("as") != null || range.param("g") != null || range.param("v") != null;
    }

    /** Whether a {@code stream} parameter, if any, is one the serializer streams: {@code watch}, in JSON or protobuf. */
    public static boolean streamAllowed(MediaType range, String mediaType) {
        String stream = range.param("stream");
        return stream == null || stream.isEmpty() || stream.equals("watch") && !mediaType.equals(MediaType.YAML);
    }

    /** kube's NotAcceptable for a response form none of whose serializers the header allows. */
    public static StatusException notAcceptable() {
        return new StatusException(StatusReason.NOT_ACCEPTABLE, 406, "only the following media types are accepted: "
                + String.join(", ", MEDIA_TYPES), null, null);
    }

    /** kube's NotAcceptable for a watch asked in a media type that has no stream form. */
    public static StatusException streamNotAcceptable() {
        return new StatusException(StatusReason.NOT_ACCEPTABLE, 406, "only the following media types are accepted: "
                + MediaType.JSON + ";stream=watch, " + PROTOBUF + ";stream=watch", null, null);
    }

    private static boolean matches(MediaType range, String mediaType) {
        if (range.type().equals(mediaType) || range.type().equals("*/*")) {
            return true;
        }
        if (mediaType.equals(MediaType.YAML) && range.isYaml()) {
            return true; // the older YAML names, which Kubelix has always read as YAML
        }
        return range.subType().equals("*") && mediaType.startsWith(range.mainType() + "/");
    }
}
