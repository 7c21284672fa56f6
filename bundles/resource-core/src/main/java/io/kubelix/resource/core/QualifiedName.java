package io.kubelix.resource.core;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * apimachinery's IsQualifiedName: an optional DNS-1123 subdomain prefix and '/', then a name of
 * at most 63 alphanumerics, '-', '_' or '.'. Label keys and finalizer names use it.
 */
final class QualifiedName {
    static final int NAME_MAX_LENGTH = 63;

    private static final String FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final String ERR_MSG = "must consist of alphanumeric characters, '-', '_' or '.', "
            + "and must start and end with an alphanumeric character";
    private static final Pattern NAME = Pattern.compile(FMT);

    private QualifiedName() {
    }

    /** The reasons {@code value} is not a qualified name; empty when it is one. */
    static List<String> validate(String value) {
        List<String> errs = new ArrayList<>();
        String[] parts = value.split("/", -1);
        String name;
        switch (parts.length) {
            case 1 -> name = parts[0];
            case 2 -> {
                String prefix = parts[0];
                name = parts[1];
                if (prefix.isEmpty()) {
                    errs.add("prefix part " + ValidationMessages.emptyError());
                } else {
                    DNS1123.isSubdomain(prefix).forEach(m -> errs.add("prefix part " + m));
                }
            }
            default -> {
                errs.add("a qualified name " + ValidationMessages.regexError(ERR_MSG, FMT, "MyName", "my.name", "123-abc")
                        + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
                return errs;
            }
        }
        if (name.isEmpty()) {
            errs.add("name part " + ValidationMessages.emptyError());
        } else if (ValidationMessages.byteLength(name) > NAME_MAX_LENGTH) {
            errs.add("name part " + ValidationMessages.maxLenError(NAME_MAX_LENGTH));
        }
        if (!NAME.matcher(name).matches()) {
            errs.add("name part " + ValidationMessages.regexError(ERR_MSG, FMT, "MyName", "my.name", "123-abc"));
        }
        return errs;
    }
}
