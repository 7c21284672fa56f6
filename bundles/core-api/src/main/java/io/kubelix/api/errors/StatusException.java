package io.kubelix.api.errors;

import io.kubelix.api.schema.GroupResource;
import org.osgi.annotation.versioning.ProviderType;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A failed request, carried to the client as a {@code metav1.Status} object (k8s' StatusError).
 * Anything that can fail with a client-visible reason throws this; everything else that escapes
 * a handler becomes a 500 {@code InternalError}.
 */
@ProviderType
public class StatusException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final StatusReason reason;
    private final int code;
    private final Details details;
    private final String continueToken;

    /**
     * metav1.StatusDetails: which object the error is about and the field causes.
     *
     * @param name              the object's name, or null
     * @param group             the resource's group, or null
     * @param kind              the resource (kube-apiserver puts the resource name here), or null
     * @param causes            field causes, never null
     * @param retryAfterSeconds seconds the client should wait before retrying, or 0
     */
    public record Details(String name, String group, String kind, List<StatusCause> causes, int retryAfterSeconds) {
        public Details {
            causes = causes == null ? List.of() : List.copyOf(causes);
        }

        static Details of(GroupResource gr, String name) {
            return new Details(name, gr.group(), gr.resource(), List.of(), 0);
        }
    }

    public StatusException(StatusReason reason, String message) {
        this(reason, reason.code(), message, null, null);
    }

    public StatusException(StatusReason reason, int code, String message, Details details, Throwable cause) {
        this(reason, code, message, details, cause, null);
    }

    private StatusException(StatusReason reason, int code, String message, Details details, Throwable cause,
                            String continueToken) {
        super(Objects.requireNonNull(message, "message"), cause);
        this.reason = Objects.requireNonNull(reason, "reason");
        this.code = code;
        this.details = details;
        this.continueToken = continueToken;
    }

    public StatusReason reason() {
        return reason;
    }

    /** The HTTP status code of the response. */
    public int code() {
        return code;
    }

    /** The Status' details, or null when it has none. */
    public Details details() {
        return details;
    }

    /**
     * The continue token the Status carries in its {@code metadata.continue}, or null: a list's
     * 410 for an expired continue token offers one that continues at the current revision.
     */
    public String continueToken() {
        return continueToken;
    }

    public static StatusException notFound(GroupResource gr, String name) {
        return new StatusException(StatusReason.NOT_FOUND, 404,
                quoted(gr) + " \"" + name + "\" not found", Details.of(gr, name), null);
    }

    public static StatusException alreadyExists(GroupResource gr, String name) {
        return new StatusException(StatusReason.ALREADY_EXISTS, 409,
                quoted(gr) + " \"" + name + "\" already exists", Details.of(gr, name), null);
    }

    /** An optimistic-concurrency failure; {@code why} is the storage's explanation. */
    public static StatusException conflict(GroupResource gr, String name, String why) {
        return new StatusException(StatusReason.CONFLICT, 409,
                "Operation cannot be fulfilled on " + gr + " \"" + name + "\": " + why, Details.of(gr, name), null);
    }

    /**
     * A 422 with one cause per field error, worded as kube-apiserver's NewInvalid: the message
     * names each field, a cause's message does not (field.Error.ErrorBody), since clients print
     * {@code <field>: <cause message>}.
     */
    public static StatusException invalid(String kind, String group, String name, List<FieldError> errors) {
        List<StatusCause> causes = errors.stream()
                .map(e -> new StatusCause(e.type().causeType(), errorBody(e), e.field()))
                .toList();
        String summary = errors.size() == 1 ? errors.get(0).message()
                : "[" + errors.stream().map(FieldError::message).collect(Collectors.joining(", ")) + "]";
        String what = group == null || group.isEmpty() ? kind : kind + "." + group;
        return new StatusException(StatusReason.INVALID, 422,
                what + " \"" + name + "\" is invalid: " + summary,
                new Details(name, group, kind, causes, 0), null);
    }

    public static StatusException badRequest(String message) {
        return new StatusException(StatusReason.BAD_REQUEST, message);
    }

    public static StatusException unauthorized(String message) {
        return new StatusException(StatusReason.UNAUTHORIZED, message);
    }

    public static StatusException forbidden(GroupResource gr, String name, String why) {
        String subject = name == null || name.isEmpty() ? quoted(gr) : quoted(gr) + " \"" + name + "\"";
        return new StatusException(StatusReason.FORBIDDEN, 403, subject + " is forbidden: " + why,
                Details.of(gr, name), null);
    }

    public static StatusException methodNotSupported(GroupResource gr, String verb) {
        return new StatusException(StatusReason.METHOD_NOT_ALLOWED, 405,
                verb + " is not supported on resources of kind \"" + gr + "\"", Details.of(gr, null), null);
    }

    public static StatusException gone(String message) {
        return new StatusException(StatusReason.GONE, message);
    }

    /** The watch/list answer for a resourceVersion older than the retained window (410, reason Expired). */
    public static StatusException resourceExpired(String message) {
        return new StatusException(StatusReason.EXPIRED, 410, message, null, null);
    }

    /**
     * A 410 Expired whose Status carries {@code continueToken} in its {@code metadata.continue}
     * (kube's inconsistent-continue answer).
     */
    public static StatusException resourceExpired(String message, String continueToken) {
        return new StatusException(StatusReason.EXPIRED, 410, message, null, null,
                Objects.requireNonNull(continueToken, "continueToken"));
    }

    public static StatusException tooManyRequests(String message, int retryAfterSeconds) {
        return new StatusException(StatusReason.TOO_MANY_REQUESTS, 429, message,
                new Details(null, null, null, List.of(), retryAfterSeconds), null);
    }

    public static StatusException requestEntityTooLarge(String message) {
        return new StatusException(StatusReason.REQUEST_ENTITY_TOO_LARGE, message);
    }

    public static StatusException unsupportedMediaType(String contentType) {
        return new StatusException(StatusReason.UNSUPPORTED_MEDIA_TYPE, 415,
                "the body of the request was in an unknown format (" + contentType + ") - accepted media types "
                        + "include: application/json, application/yaml, application/vnd.kubernetes.protobuf",
                null, null);
    }

    public static StatusException internalError(String message, Throwable cause) {
        return new StatusException(StatusReason.INTERNAL_ERROR, 500,
                "Internal error occurred: " + message, null, cause);
    }

    public static StatusException serviceUnavailable(String message) {
        return new StatusException(StatusReason.SERVICE_UNAVAILABLE, message);
    }

    public static StatusException timeout(String message) {
        return new StatusException(StatusReason.TIMEOUT, message);
    }

    /** The message without its leading {@code <field>: }. */
    private static String errorBody(FieldError e) {
        String message = e.message();
        String prefix = e.field() + ": ";
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }

    private static String quoted(GroupResource gr) {
        return gr.toString();
    }
}
