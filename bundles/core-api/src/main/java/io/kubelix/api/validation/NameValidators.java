package io.kubelix.api.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** apimachinery's IsDNS1123Label, IsDNS1123Subdomain, IsDNS1035Label, IsQualifiedName, IsValidLabelValue. */
public final class NameValidators {
    public static final int DNS1123_LABEL_MAX_LENGTH = 63;
    public static final int DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
    public static final int QUALIFIED_NAME_MAX_LENGTH = 63;
    public static final int LABEL_VALUE_MAX_LENGTH = 63;

    private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
    private static final String DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
    private static final String QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final Pattern DNS1123_LABEL = Pattern.compile(DNS1123_LABEL_FMT);
    private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(DNS1123_SUBDOMAIN_FMT);
    private static final Pattern DNS1035_LABEL = Pattern.compile(DNS1035_LABEL_FMT);
    private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FMT);
    private static final Pattern LABEL_VALUE = Pattern.compile("(" + QUALIFIED_NAME_FMT + ")?");

    private NameValidators() {
    }

    public static List<String> isDNS1123Label(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > DNS1123_LABEL_MAX_LENGTH) {
            errs.add(maxLenError(DNS1123_LABEL_MAX_LENGTH));
        }
        if (!DNS1123_LABEL.matcher(value).matches()) {
            if (DNS1123_SUBDOMAIN.matcher(value).matches()) {
                // A valid subdomain that is not a label: the length is checked above, so it has dots.
                errs.add("must not contain dots");
                return errs;
            }
            errs.add("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
                    + "start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
                    + "validation is '" + DNS1123_LABEL_FMT + "')");
        }
        return errs;
    }

    public static List<String> isDNS1123Subdomain(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > DNS1123_SUBDOMAIN_MAX_LENGTH) {
            errs.add(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
        }
        if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
            errs.add("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                    + "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
                    + "validation is '" + DNS1123_SUBDOMAIN_FMT + "')");
        }
        return errs;
    }

    /** A DNS-1035 label: a DNS-1123 label that starts with a letter (names of versions, CRD resources). */
    public static List<String> isDNS1035Label(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > DNS1123_LABEL_MAX_LENGTH) {
            errs.add(maxLenError(DNS1123_LABEL_MAX_LENGTH));
        }
        if (!DNS1035_LABEL.matcher(value).matches()) {
            errs.add("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
                    + "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', "
                    + "regex used for validation is '" + DNS1035_LABEL_FMT + "')");
        }
        return errs;
    }

    /** A name usable as a path segment: not "." or "..", no '/' or '%'. */
    public static List<String> isValidPathSegmentName(String value) {
        if (value.equals(".") || value.equals("..")) {
            return List.of("may not be '" + value + "'");
        }
        List<String> errs = new ArrayList<>();
        for (String illegal : new String[] {"/", "%"}) {
            if (value.contains(illegal)) {
                errs.add("may not contain '" + illegal + "'");
            }
        }
        return errs;
    }

    /** A label or annotation key: an optional DNS-1123 subdomain prefix and '/', then a name of at most 63 characters. */
    public static List<String> isQualifiedName(String value) {
        List<String> errs = new ArrayList<>();
        String[] parts = value.split("/", -1);
        String name;
        if (parts.length == 1) {
            name = parts[0];
        } else if (parts.length == 2) {
            String prefix = parts[0];
            name = parts[1];
            if (prefix.isEmpty()) {
                errs.add("prefix part must be non-empty");
            } else {
                isDNS1123Subdomain(prefix).forEach(m -> errs.add("prefix part " + m));
            }
        } else {
            return List.of("a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start "
                    + "and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used "
                    + "for validation is '" + QUALIFIED_NAME_FMT + "') with an optional DNS subdomain prefix and '/' "
                    + "(e.g. 'example.com/MyName')");
        }
        if (name.isEmpty()) {
            errs.add("name part must be non-empty");
        } else if (name.length() > QUALIFIED_NAME_MAX_LENGTH) {
            errs.add("name part must be no more than 63 characters");
        }
        if (!name.isEmpty() && !QUALIFIED_NAME.matcher(name).matches()) {
            errs.add("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with "
                    + "an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
                    + "validation is '" + QUALIFIED_NAME_FMT + "')");
        }
        return errs;
    }

    public static List<String> isValidLabelValue(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > LABEL_VALUE_MAX_LENGTH) {
            errs.add(maxLenError(LABEL_VALUE_MAX_LENGTH));
        }
        if (!LABEL_VALUE.matcher(value).matches()) {
            errs.add("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
                    + "and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
                    + "'12345', regex used for validation is '(" + QUALIFIED_NAME_FMT + ")?')");
        }
        return errs;
    }

    static String maxLenError(int length) {
        return "must be no more than " + length + " characters";
    }
}
