package io.kubelix.resource.core.config;

import java.io.ByteArrayOutputStream;
import java.util.Base64;

/**
 * The {@code []byte} fields of the API (Secret {@code data}, ConfigMap {@code binaryData}) travel
 * as standard, padded base64. Decoding follows Go's {@code base64.StdEncoding}, which kube-apiserver
 * uses: CR and LF are skipped, padding is required, and errors name the offending input byte with
 * Go's words ({@code illegal base64 data at input byte 4}). Java's decoder is laxer (padding is
 * optional), so it is not used for checking.
 */
final class Base64Data {

    /** Input that is not valid base64; the message is Go's. */
    static final class IllegalBase64Exception extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        IllegalBase64Exception(int offset) {
            super("illegal base64 data at input byte " + offset);
        }
    }

    private Base64Data() {
    }

    /** The canonical encoding: standard alphabet, padded, no line breaks. */
    static String encode(byte[] data) {
        return Base64.getEncoder().encodeToString(data);
    }

    /** Whether {@code s} decodes. */
    static boolean isValid(String s) {
        try {
            decode(s);
            return true;
        } catch (IllegalBase64Exception e) {
            return false;
        }
    }

    /** Decodes as Go's StdEncoding.DecodeString does; throws with Go's message when it would fail. */
    static byte[] decode(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length() * 3 / 4);
        int[] quantum = new int[4];
        int j = 0;
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i++);
            if (c == '\r' || c == '\n') {
                continue;
            }
            if (c == '=') {
                if (j < 2) {
                    throw new IllegalBase64Exception(i - 1);
                }
                if (j == 2) {
                    // "==" is expected; the first '=' is consumed.
                    i = skipNewlines(s, i);
                    if (i == n) {
                        throw new IllegalBase64Exception(n);
                    }
                    if (s.charAt(i) != '=') {
                        throw new IllegalBase64Exception(i - 1);
                    }
                    i++;
                }
                i = skipNewlines(s, i);
                if (i < n) {
                    throw new IllegalBase64Exception(i);
                }
                flush(out, quantum, j);
                return out.toByteArray();
            }
            int v = sextet(c);
            if (v < 0) {
                throw new IllegalBase64Exception(i - 1);
            }
            quantum[j++] = v;
            if (j == 4) {
                flush(out, quantum, 4);
                j = 0;
            }
        }
        if (j != 0) {
            // A quantum cut short: padding is required, so this is always an error.
            throw new IllegalBase64Exception(n - j);
        }
        return out.toByteArray();
    }

    private static int skipNewlines(String s, int i) {
        while (i < s.length() && (s.charAt(i) == '\r' || s.charAt(i) == '\n')) {
            i++;
        }
        return i;
    }

    /** Writes the bytes of a quantum of {@code j} sextets (2, 3 or 4); spare low bits are ignored as Go does. */
    private static void flush(ByteArrayOutputStream out, int[] q, int j) {
        int bits = q[0] << 18 | q[1] << 12 | (j > 2 ? q[2] << 6 : 0) | (j > 3 ? q[3] : 0);
        out.write(bits >> 16 & 0xff);
        if (j > 2) {
            out.write(bits >> 8 & 0xff);
        }
        if (j > 3) {
            out.write(bits & 0xff);
        }
    }

    private static int sextet(char c) {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        if (c == '+') {
            return 62;
        }
        if (c == '/') {
            return 63;
        }
        return -1;
    }
}
