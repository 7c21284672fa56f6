package io.kubelix.runtime.endpoints;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.runtime.codec.MediaType;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

import java.util.List;

/**
 * Content negotiation for resource responses: the first media range of the Accept header the
 * server can produce wins: JSON, YAML, or a meta.k8s.io Table, PartialObjectMetadata or
 * PartialObjectMetadataList (v1 or v1beta1).
 */
final class Negotiation {

    /**
     * What to answer: the object itself (JSON or YAML), a Table, or only its metadata
     * (PartialObjectMetadata for one object, PartialObjectMetadataList for a list).
     */
    enum Output { JSON, YAML, TABLE, PARTIAL_OBJECT_METADATA, PARTIAL_OBJECT_METADATA_LIST }

    /** @param tableApiVersion {@code meta.k8s.io/v1} or {@code meta.k8s.io/v1beta1} for the meta.k8s.io outputs */
    record Choice(Output output, String tableApiVersion) {
    }

    private Negotiation() {
    }

    static Choice choose(Request request) {
        // A list answers a list's forms, one object an object's: a range of the other shape is skipped.
        io.kubelix.api.request.RequestInfo info = io.kubelix.runtime.request.Requests.requestInfo(request);
        boolean list = info != null && (info.verb().equals("list") || info.verb().equals("deletecollection"));
        String accept = request.getHeaders().get(HttpHeader.ACCEPT);
        List<MediaType> ranges = MediaType.parseAccept(accept);
        if (ranges.isEmpty()) {
            return new Choice(Output.JSON, null);
        }
        for (MediaType m : ranges) {
            String as = m.param("as");
            if (as == null) {
                if (m.isYaml()) {
                    return new Choice(Output.YAML, null);
                }
                if (m.isJson()) {
                    return new Choice(Output.JSON, null);
                }
                continue;
            }
            Output output = switch (as) {
                case "Table" -> Output.TABLE;
                case "PartialObjectMetadata" -> Output.PARTIAL_OBJECT_METADATA;
                case "PartialObjectMetadataList" -> Output.PARTIAL_OBJECT_METADATA_LIST;
                default -> null;
            };
            if (output == Output.PARTIAL_OBJECT_METADATA && list || output == Output.PARTIAL_OBJECT_METADATA_LIST && !list) {
                continue;
            }
            if (output != null && "meta.k8s.io".equals(m.param("g")) && m.type().equals(MediaType.JSON)) {
                String v = m.param("v");
                if ("v1".equals(v) || "v1beta1".equals(v)) {
                    return new Choice(output, "meta.k8s.io/" + v);
                }
            }
        }
        throw new StatusException(StatusReason.NOT_ACCEPTABLE, 406,
                "only the following media types are accepted: application/json, application/yaml, "
                        + "application/json;as=Table;v=v1;g=meta.k8s.io, "
                        + "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io, "
                        + "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io", null, null);
    }
}
