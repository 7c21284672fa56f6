package io.kubelix.resource.core.config;

import io.kubelix.api.validation.NameValidators;
import io.kubelix.resource.core.common.ValidationMessages;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * apimachinery's IsConfigMapKey: the keys of ConfigMap {@code data}/{@code binaryData} and Secret
 * {@code data}. They become file names when mounted, hence no "." or ".." and no '/'.
 */
final class ConfigKey {
    private static final String FMT = "[-._a-zA-Z0-9]+";
    private static final String ERR_MSG = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
    private static final Pattern KEY = Pattern.compile(FMT);

    private ConfigKey() {
    }

    /** The reasons {@code key} is not a valid config key; empty when it is one. */
    static List<String> validate(String key) {
        List<String> errs = new ArrayList<>();
        if (ValidationMessages.byteLength(key) > NameValidators.DNS1123_SUBDOMAIN_MAX_LENGTH) {
            errs.add(ValidationMessages.maxLenError(NameValidators.DNS1123_SUBDOMAIN_MAX_LENGTH));
        }
        if (!KEY.matcher(key).matches()) {
            errs.add(ValidationMessages.regexError(ERR_MSG, FMT, "key.name", "KEY_NAME", "key-name"));
        }
        if (key.equals(".")) {
            errs.add("must not be '.'");
        } else if (key.equals("..")) {
            errs.add("must not be '..'");
        } else if (key.startsWith("..")) {
            errs.add("must not start with '..'");
        }
        return errs;
    }
}
