package io.kubelix.runtime.endpoints;

import io.kubelix.runtime.codec.MediaType;
import io.kubelix.runtime.codec.MediaTypeNegotiation;
import io.kubelix.runtime.codec.protobuf.ProtobufEncoder;
import org.eclipse.jetty.http.HttpHeader;

/**
 * Content negotiation for resource responses, as kube's RequestScope restricts it
 * ({@link MediaTypeNegotiation}): the object in JSON, YAML or Kubernetes protobuf (protobuf only
 * for built-in kinds that have a message; custom resources have none), a meta.k8s.io Table (JSON),
 * or PartialObjectMetadata or PartialObjectMetadataList (v1 or v1beta1; JSON or protobuf, for any
 * kind). A range of the other shape (PartialObjectMetadata for a list) is skipped.
 */
final class Negotiation {

    /**
     * What to answer: the object itself (JSON, YAML or protobuf), a Table, or only its metadata
     * (PartialObjectMetadata for one object, PartialObjectMetadataList for a list).
     */
    enum Output { JSON, YAML, PROTOBUF, TABLE, PARTIAL_OBJECT_METADATA, PARTIAL_OBJECT_METADATA_LIST }

    /**
     * @param tableApiVersion {@code meta.k8s.io/v1} or {@code meta.k8s.io/v1beta1} for the meta.k8s.io outputs
     * @param protobuf        whether the answer is written in protobuf (PROTOBUF, or a PartialObjectMetadata form)
     */
    record Choice(Output output, String tableApiVersion, boolean protobuf) {
        Choice(Output output) {
            this(output, null, output == Output.PROTOBUF);
        }
    }

    private Negotiation() {
    }

    /** @throws io.kubelix.api.errors.StatusException 406 when the Accept header allows no form of this endpoint */
    static Choice choose(RequestScope s) {
        boolean list = s.info.verb().equals("list") || s.info.verb().equals("deletecollection");
        boolean protobufServed = ProtobufEncoder.hasMessage(s.kind().groupVersion().apiVersion(), s.kind().kind());
        String accept = s.request.getHeaders().get(HttpHeader.ACCEPT);
        if (accept == null || accept.isBlank()) {
            return new Choice(Output.JSON);
        }
        Choice choice = MediaTypeNegotiation.negotiate(accept, (range, mediaType) -> {
            if (!MediaTypeNegotiation.streamAllowed(range, mediaType)) {
                return null;
            }
            if (!MediaTypeNegotiation.converts(range)) {
                return switch (mediaType) {
                    case MediaType.JSON -> new Choice(Output.JSON);
                    case MediaType.YAML -> new Choice(Output.YAML);
                    default -> protobufServed ? new Choice(Output.PROTOBUF) : null;
                };
            }
            return converted(range, mediaType, list);
        });
        if (choice == null) {
            throw MediaTypeNegotiation.notAcceptable();
        }
        return choice;
    }

    /** A meta.k8s.io form: Tables in JSON, the PartialObjectMetadata forms in JSON or protobuf. */
    private static Choice converted(MediaType range, String mediaType, boolean list) {
        String v = range.param("v");
        if (!"meta.k8s.io".equals(range.param("g")) || !("v1".equals(v) || "v1beta1".equals(v))
                || range.param("as") == null) {
            return null;
        }
        Output output = switch (range.param("as")) {
            case "Table" -> Output.TABLE;
            case "PartialObjectMetadata" -> Output.PARTIAL_OBJECT_METADATA;
            case "PartialObjectMetadataList" -> Output.PARTIAL_OBJECT_METADATA_LIST;
            default -> null;
        };
        if (output == null || output == Output.PARTIAL_OBJECT_METADATA && list
                || output == Output.PARTIAL_OBJECT_METADATA_LIST && !list) {
            return null;
        }
        boolean protobuf = mediaType.equals(MediaTypeNegotiation.PROTOBUF);
        if (output == Output.TABLE ? !mediaType.equals(MediaType.JSON) : mediaType.equals(MediaType.YAML)) {
            return null;
        }
        return new Choice(output, "meta.k8s.io/" + v, protobuf);
    }
}
