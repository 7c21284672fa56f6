package io.kubelix.runtime.endpoints.responsewriters;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.runtime.audit.AuditContext;
import io.kubelix.runtime.codec.Codecs;
import io.kubelix.runtime.codec.MediaType;
import io.kubelix.runtime.codec.MediaTypeNegotiation;
import io.kubelix.runtime.codec.protobuf.ProtobufCodec;
import io.kubelix.runtime.codec.protobuf.ProtobufEncoder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Writing objects and Status errors to a response (k8s' responsewriters); each object written is
 * given to the request's audit event (a Status as its response status).
 */
public final class Responses {
    /** Request attribute set once the whole request body has been read. */
    public static final String BODY_READ = "io.kubelix.bodyRead";
    /**
     * kube-apiserver's default limit on a request body (3 MiB): the most a handler reads, and the most
     * of an unread body read and dropped before an answer.
     */
    public static final int MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

    private Responses() {
    }

    /**
     * Writes {@code body} as JSON, or as YAML when the client's Accept header prefers YAML (by
     * kube's negotiation; a preferred protobuf gives JSON, as these objects are not served in it).
     * Completes {@code callback}.
     */
    public static void writeObject(Request request, Response response, Callback callback, int code, JsonNode body) {
        boolean yaml = MediaTypeNegotiation.unrestricted(request.getHeaders().get(HttpHeader.ACCEPT)).equals(MediaType.YAML);
        byte[] bytes = yaml ? Codecs.toYaml(body) : Codecs.toJson(body);
        AuditContext.logResponseObject(request, body, yaml ? null : bytes);
        write(response, callback, code, yaml ? MediaType.YAML : MediaType.JSON, bytes);
    }

    /** Writes a JSON body with an explicit content type (discovery documents, Tables). */
    public static void writeJson(Response response, Callback callback, int code, String contentType, JsonNode body) {
        byte[] bytes = Codecs.toJson(body);
        AuditContext.logResponseObject(response.getRequest(), body, bytes);
        write(response, callback, code, contentType, bytes);
    }

    /**
     * Writes an object in Kubernetes protobuf; one whose kind has no protobuf form here is written
     * as JSON instead.
     */
    public static void writeProtobuf(Response response, Callback callback, int code, ObjectNode body) {
        byte[] bytes;
        try {
            bytes = ProtobufEncoder.encode(body);
        } catch (IllegalArgumentException e) {
            writeJson(response, callback, code, MediaType.JSON, body);
            return;
        }
        AuditContext.logResponseObject(response.getRequest(), body, null);
        write(response, callback, code, ProtobufCodec.MEDIA_TYPE, bytes);
    }

    /**
     * Writes the Status of an error in the form the Accept header prefers among JSON, YAML and
     * protobuf, as kube's ErrorNegotiated does.
     */
    public static void writeStatus(Request request, Response response, Callback callback, StatusException e) {
        if (e.details() != null && e.details().retryAfterSeconds() > 0) {
            response.getHeaders().put(HttpHeader.RETRY_AFTER, Integer.toString(e.details().retryAfterSeconds()));
        }
        ObjectNode status = StatusObjects.failure(e);
        if (MediaTypeNegotiation.unrestricted(request.getHeaders().get(HttpHeader.ACCEPT))
                .equals(MediaTypeNegotiation.PROTOBUF)) {
            writeProtobuf(response, callback, e.code(), status);
            return;
        }
        writeObject(request, response, callback, e.code(), status);
    }

    /** Adds {@code Warning: 299 - "..."} headers, as kube-apiserver's warning recorder does. */
    public static void addWarnings(Response response, List<String> warnings) {
        for (String w : warnings) {
            String escaped = w.replace("\\", "\\\\").replace("\"", "\\\"").replaceAll("[\\r\\n]", " ");
            response.getHeaders().add(HttpHeader.WARNING, "299 - \"" + escaped + "\"");
        }
    }

    public static void write(Response response, Callback callback, int code, String contentType, byte[] bytes) {
        prepare(response, code, contentType, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    /** Writes a list already encoded in protobuf; {@code json} gives its JSON for the audit log, only when recorded. */
    public static void writeProtobuf(Response response, Callback callback, int code, byte[] bytes,
                                     java.util.function.Supplier<byte[]> json) {
        AuditContext.logResponseJson(response.getRequest(), json);
        write(response, callback, code, ProtobufCodec.MEDIA_TYPE, bytes);
    }

    /**
     * Writes a JSON list streamed in chunks, its length not known ahead (chunked on HTTP/1.1). The
     * audit log gets the whole list only when it records response bodies.
     */
    public static void write(Response response, Callback callback, int code, String contentType, StreamingList body) {
        AuditContext.logResponseJson(response.getRequest(), body::toByteArray);
        prepare(response, code, contentType, -1);
        body.write(response, callback);
    }

    /**
     * The status and headers of a response of {@code length} bytes (-1: not known ahead), once any
     * unread request body is dealt with.
     */
    private static void prepare(Response response, int code, String contentType, long length) {
        // A body left unread on an HTTP/1.1 connection makes Jetty close it, and closing with unread
        // bytes resets the connection, which can lose this very response. So, as Go's server does, the
        // rest of a body is read and dropped first (up to the body limit); beyond it, the connection is
        // announced as closing.
        Request request = response.getRequest();
        if (request.getLength() != 0 && request.getAttribute(BODY_READ) == null
                && request.getConnectionMetaData().getHttpVersion() != HttpVersion.HTTP_2
                && !discardBody(request, MAX_REQUEST_BODY_BYTES)) {
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
        }
        response.setStatus(code);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        if (length >= 0) {
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, length);
        }
    }

    /** Reads and drops what is left of the request body; false when it exceeds {@code limit} or fails. */
    private static boolean discardBody(Request request, long limit) {
        long total = 0;
        while (true) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                try (Blocker.Runnable blocker = Blocker.runnable()) {
                    request.demand(blocker);
                    blocker.block();
                } catch (java.io.IOException e) {
                    return false;
                }
                continue;
            }
            if (Content.Chunk.isFailure(chunk)) {
                return false;
            }
            total += chunk.remaining();
            boolean last = chunk.isLast();
            chunk.release();
            if (last) {
                request.setAttribute(BODY_READ, Boolean.TRUE);
                return true;
            }
            if (total > limit) {
                return false;
            }
        }
    }
}
