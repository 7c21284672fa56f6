package io.kubelix.api.errors;

import java.util.List;

/**
 * One validation failure of one field, as k8s' field.Error. A list of them becomes a 422
 * {@code Invalid} Status whose causes name each field.
 *
 * @param type   what is wrong
 * @param field  the field path, such as {@code metadata.name} or {@code data[a/b]}
 * @param value  the offending value (rendered into the message), or null
 * @param detail why the value is wrong, or null
 */
public record FieldError(Type type, String field, Object value, String detail) {

    /** field.ErrorType: the cause type reported to the client and the words of the message. */
    public enum Type {
        REQUIRED("FieldValueRequired", "Required value"),
        INVALID("FieldValueInvalid", "Invalid value"),
        DUPLICATE("FieldValueDuplicate", "Duplicate value"),
        NOT_SUPPORTED("FieldValueNotSupported", "Unsupported value"),
        FORBIDDEN("FieldValueForbidden", "Forbidden"),
        TOO_LONG("FieldValueTooLong", "Too long"),
        TOO_MANY("FieldValueTooMany", "Too many"),
        NOT_FOUND("FieldValueNotFound", "Not found"),
        INTERNAL("InternalError", "Internal error");

        private final String causeType;
        private final String words;

        Type(String causeType, String words) {
            this.causeType = causeType;
            this.words = words;
        }

        public String causeType() {
            return causeType;
        }

        public String words() {
            return words;
        }
    }

    public static FieldError required(String field, String detail) {
        return new FieldError(Type.REQUIRED, field, null, detail);
    }

    public static FieldError invalid(String field, Object value, String detail) {
        return new FieldError(Type.INVALID, field, value, detail);
    }

    public static FieldError forbidden(String field, String detail) {
        return new FieldError(Type.FORBIDDEN, field, null, detail);
    }

    public static FieldError duplicate(String field, Object value) {
        return new FieldError(Type.DUPLICATE, field, value, null);
    }

    public static FieldError notSupported(String field, Object value, List<String> supported) {
        return new FieldError(Type.NOT_SUPPORTED, field, value,
                "supported values: " + String.join(", ", supported.stream().map(s -> "\"" + s + "\"").toList()));
    }

    public static FieldError tooLong(String field, Object value, int max) {
        return new FieldError(Type.TOO_LONG, field, value, "must have at most " + max + " bytes");
    }

    /** The message as kube-apiserver words it: {@code metadata.name: Invalid value: "A": <detail>}. */
    public String message() {
        StringBuilder b = new StringBuilder(field).append(": ").append(type.words());
        // As field.Error.ErrorBody: these types never print the value.
        boolean showValue = type != Type.REQUIRED && type != Type.FORBIDDEN && type != Type.TOO_LONG
                && type != Type.INTERNAL;
        if (value != null && showValue) {
            b.append(": ");
            if (value instanceof String s) {
                b.append('"').append(s).append('"');
            } else {
                b.append(value);
            }
        }
        if (detail != null && !detail.isEmpty()) {
            b.append(": ").append(detail);
        }
        return b.toString();
    }

    /** The same error with its field path placed under {@code prefix}. */
    public FieldError under(String prefix) {
        return new FieldError(type, prefix + "." + field, value, detail);
    }
}
