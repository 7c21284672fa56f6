package io.kubelix.resource.core.common;

import java.nio.charset.StandardCharsets;

/**
 * The words of apimachinery's util/validation ({@code MaxLenError}, {@code RegexError},
 * {@code EmptyError}), kept identical so clients and tests that match kube-apiserver's messages
 * keep working.
 */
public final class ValidationMessages {

    private ValidationMessages() {
    }

    public static String maxLenError(int length) {
        return "must be no more than " + length + " characters";
    }

    static String emptyError() {
        return "must be non-empty";
    }

    /** Kube's wording, including its {@code 'a',  or 'b'} spacing. */
    public static String regexError(String msg, String format, String... examples) {
        if (examples.length == 0) {
            return msg + " (regex used for validation is '" + format + "')";
        }
        StringBuilder b = new StringBuilder(msg).append(" (e.g. ");
        for (int i = 0; i < examples.length; i++) {
            if (i > 0) {
                b.append(" or ");
            }
            b.append('\'').append(examples[i]).append("', ");
        }
        return b.append("regex used for validation is '").append(format).append("')").toString();
    }

    /** Go's {@code len(string)}: the length in UTF-8 bytes, which kube's limits count. */
    public static int byteLength(String value) {
        return value.getBytes(StandardCharsets.UTF_8).length;
    }
}
