package io.kubelix.api.errors;

/**
 * metav1.StatusReason: the machine-readable reason of a failed request, with the HTTP code
 * kube-apiserver answers it with.
 */
public enum StatusReason {
    /**
     * metav1.StatusReasonUnknown: no reason given (the Status carries no {@code reason}), as in a
     * denial an admission webhook answered without one; the code says what kind of failure it is.
     */
    UNKNOWN("", 500),
    BAD_REQUEST("BadRequest", 400),
    UNAUTHORIZED("Unauthorized", 401),
    FORBIDDEN("Forbidden", 403),
    NOT_FOUND("NotFound", 404),
    METHOD_NOT_ALLOWED("MethodNotAllowed", 405),
    NOT_ACCEPTABLE("NotAcceptable", 406),
    ALREADY_EXISTS("AlreadyExists", 409),
    CONFLICT("Conflict", 409),
    GONE("Gone", 410),
    EXPIRED("Expired", 410),
    REQUEST_ENTITY_TOO_LARGE("RequestEntityTooLarge", 413),
    UNSUPPORTED_MEDIA_TYPE("UnsupportedMediaType", 415),
    INVALID("Invalid", 422),
    TOO_MANY_REQUESTS("TooManyRequests", 429),
    INTERNAL_ERROR("InternalError", 500),
    SERVICE_UNAVAILABLE("ServiceUnavailable", 503),
    TIMEOUT("Timeout", 504),
    SERVER_TIMEOUT("ServerTimeout", 504);

    private final String wireName;
    private final int code;

    StatusReason(String wireName, int code) {
        this.wireName = wireName;
        this.code = code;
    }

    /** The reason as it appears in a Status object's {@code reason} field (empty: none). */
    public String wireName() {
        return wireName;
    }

    /** The HTTP status code kube-apiserver uses for this reason. */
    public int code() {
        return code;
    }

    /** The reason of this wire name, or {@link #UNKNOWN} for a name kube does not define here. */
    public static StatusReason fromWireName(String name) {
        for (StatusReason r : values()) {
            if (r.wireName.equals(name)) {
                return r;
            }
        }
        return UNKNOWN;
    }
}
