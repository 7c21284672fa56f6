package io.kubelix.runtime.codec;

import com.fasterxml.jackson.dataformat.yaml.util.StringQuotingChecker;

import java.util.regex.Pattern;

/**
 * Which strings a YAML response quotes: Jackson's defaults (booleans, null, numbers, strings that
 * would not read back as written), and YAML 1.1 timestamps too, which Go's YAML writer quotes
 * ({@code creationTimestamp: "2024-05-01T10:00:00Z"}) and readers would otherwise take as dates.
 */
final class YamlQuoting extends StringQuotingChecker.Default {
    private static final long serialVersionUID = 1L;
    private static final Pattern TIMESTAMP = Pattern.compile("\\d{4}-\\d{1,2}-\\d{1,2}([Tt ].*)?");

    @Override
    public boolean needToQuoteValue(String value) {
        return super.needToQuoteValue(value) || TIMESTAMP.matcher(value).matches();
    }
}
