package io.kubelix.resource.core;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** RFC 1123 names as apimachinery's IsDNS1123Label and IsDNS1123Subdomain check them. */
final class DNS1123 {
    static final int LABEL_MAX_LENGTH = 63;
    static final int SUBDOMAIN_MAX_LENGTH = 253;

    private static final String LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String LABEL_ERR_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
            + "characters or '-', and must start and end with an alphanumeric character";
    private static final String SUBDOMAIN_FMT = LABEL_FMT + "(\\." + LABEL_FMT + ")*";
    private static final String SUBDOMAIN_ERR_MSG = "a lowercase RFC 1123 subdomain must consist of lower case "
            + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
    private static final Pattern LABEL = Pattern.compile(LABEL_FMT);
    private static final Pattern SUBDOMAIN = Pattern.compile(SUBDOMAIN_FMT);

    private DNS1123() {
    }

    /** The reasons {@code value} is not a DNS-1123 label; empty when it is one. */
    static List<String> isLabel(String value) {
        List<String> errs = new ArrayList<>();
        if (ValidationMessages.byteLength(value) > LABEL_MAX_LENGTH) {
            errs.add(ValidationMessages.maxLenError(LABEL_MAX_LENGTH));
        }
        if (!LABEL.matcher(value).matches()) {
            if (SUBDOMAIN.matcher(value).matches()) {
                // A valid subdomain that is no label; the length was checked, so it has dots.
                errs.add("must not contain dots");
            } else {
                errs.add(ValidationMessages.regexError(LABEL_ERR_MSG, LABEL_FMT, "my-name", "123-abc"));
            }
        }
        return errs;
    }

    /** The reasons {@code value} is not a DNS-1123 subdomain; empty when it is one. */
    static List<String> isSubdomain(String value) {
        List<String> errs = new ArrayList<>();
        if (ValidationMessages.byteLength(value) > SUBDOMAIN_MAX_LENGTH) {
            errs.add(ValidationMessages.maxLenError(SUBDOMAIN_MAX_LENGTH));
        }
        if (!SUBDOMAIN.matcher(value).matches()) {
            errs.add(ValidationMessages.regexError(SUBDOMAIN_ERR_MSG, SUBDOMAIN_FMT, "example.com"));
        }
        return errs;
    }
}
