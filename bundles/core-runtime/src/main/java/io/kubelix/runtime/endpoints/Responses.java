package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.runtime.codec.Codecs;
import io.kubelix.runtime.codec.MediaType;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;
import java.util.List;

/** Writing objects and Status errors to a response (k8s' responsewriters). */
public final class Responses {
    /** Request attribute set once the whole request body has been read. */
    public static final String BODY_READ = "io.kubelix.bodyRead";

    private Responses() {
    }

    /**
     * Writes {@code body} as JSON, or as YAML when the client's Accept header prefers YAML.
     * Completes {@code callback}.
     */
    public static void writeObject(Request request, Response response, Callback callback, int code, JsonNode body) {
        boolean yaml = prefersYaml(request);
        write(response, callback, code, yaml ? MediaType.YAML : MediaType.JSON,
                yaml ? Codecs.toYaml(body) : Codecs.toJson(body));
    }

    /** Writes a JSON body with an explicit content type (discovery documents, Tables). */
    public static void writeJson(Response response, Callback callback, int code, String contentType, JsonNode body) {
        write(response, callback, code, contentType, Codecs.toJson(body));
    }

    /** Writes the Status of an error, as JSON (or YAML when asked). */
    public static void writeStatus(Request request, Response response, Callback callback, StatusException e) {
        if (e.details() != null && e.details().retryAfterSeconds() > 0) {
            response.getHeaders().put(HttpHeader.RETRY_AFTER, Integer.toString(e.details().retryAfterSeconds()));
        }

        writeObject(request, response, callback, e.code(), StatusObjects.failure(e));
    }

    /** Adds {@code Warning: 299 - "..."} headers, as kube-apiserver's warning recorder does. */
    public static void addWarnings(Response response, List<String> warnings) {
        for (String w : warnings) {
            String escaped = w.replace("\\", "\\\\").replace("\"", "\\\"").replaceAll("[\\r\\n]", " ");
            response.getHeaders().add(HttpHeader.WARNING, "299 - \"" + escaped + "\"");
        }
    }

    public static void write(Response response, Callback callback, int code, String contentType, byte[] bytes) {
        // A response sent without reading the request's body leaves that body on an HTTP/1.1 connection,
        // which Jetty then closes; say so, so the client does not send its next request on it.
        Request request = response.getRequest();
        if (request.getLength() != 0 && request.getAttribute(BODY_READ) == null
                && request.getConnectionMetaData().getHttpVersion() != HttpVersion.HTTP_2) {
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
        }
        response.setStatus(code);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    static boolean prefersYaml(Request request) {
        for (MediaType m : MediaType.parseAccept(request.getHeaders().get(HttpHeader.ACCEPT))) {
            if (m.isYaml()) {
                return true;
            }
            if (m.isJson()) {
                return false;
            }
        }
        return false;
    }
}
