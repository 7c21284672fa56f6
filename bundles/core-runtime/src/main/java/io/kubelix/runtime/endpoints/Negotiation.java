package io.kubelix.runtime.endpoints;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.runtime.codec.MediaType;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

import java.util.List;

/**
 * Content negotiation for resource responses: the first media range of the Accept header the
 * server can produce wins: JSON, YAML, or a meta.k8s.io Table (v1 or v1beta1).
 */
final class Negotiation {

    enum Output { JSON, YAML, TABLE }

    record Choice(Output output, String tableApiVersion) {
    }

    private Negotiation() {
    }

    static Choice choose(Request request) {
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
            if (as.equals("Table") && "meta.k8s.io".equals(m.param("g")) && m.type().equals(MediaType.JSON)) {
                String v = m.param("v");
                if ("v1".equals(v) || "v1beta1".equals(v)) {
                    return new Choice(Output.TABLE, "meta.k8s.io/" + v);
                }
            }
        }
        throw new StatusException(StatusReason.NOT_ACCEPTABLE, 406,
                "only the following media types are accepted: application/json, application/yaml, "
                        + "application/json;as=Table;v=v1;g=meta.k8s.io", null, null);
    }
}
