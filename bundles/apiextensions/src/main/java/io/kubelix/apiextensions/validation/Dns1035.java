package io.kubelix.apiextensions.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** apimachinery's IsDNS1035Label, with its messages: what names of CRD versions and resources must be. */
public final class Dns1035 {
    private static final String FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
    private static final Pattern LABEL = Pattern.compile("^" + FMT + "$");
    private static final int MAX = 63;

    private Dns1035() {
    }

    public static List<String> isDNS1035Label(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > MAX) {
            errs.add("must be no more than " + MAX + " characters");
        }
        if (!LABEL.matcher(value).matches()) {
            errs.add("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
                    + "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', "
                    + "regex used for validation is '" + FMT + "')");
        }
        return errs;
    }
}
