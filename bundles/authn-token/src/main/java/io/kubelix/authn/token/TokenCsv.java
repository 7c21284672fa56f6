package io.kubelix.authn.token;

import io.kubelix.api.request.UserInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parses kube-apiserver's {@code --token-auth-file}: CSV records {@code token,user,uid[,"group1,group2"]},
 * with RFC 4180 quoting as Go's encoding/csv reads it. Blank lines and lines starting with
 * {@code #} are skipped; extra columns are ignored. As in kube, one malformed record fails the
 * whole file, and an empty token is skipped and a duplicate token replaces the earlier one, with
 * a warning. Every user gets {@code system:authenticated} besides the file's groups.
 */
final class TokenCsv {

    private static final Logger LOG = LoggerFactory.getLogger(TokenCsv.class);

    /** A record the file cannot be read past, with the line it starts on. */
    static final class MalformedTokenFileException extends Exception {
        private static final long serialVersionUID = 1L;
        private final int line;

        MalformedTokenFileException(int line, String message) {
            super("line " + line + ": " + message);
            this.line = line;
        }

        int line() {
            return line;
        }
    }

    private TokenCsv() {
    }

    /** @param source names the file in warnings */
    static TokenTable parse(String content, String source) throws MalformedTokenFileException {
        Map<String, TokenTable.Entry> entries = new HashMap<>();
        Reader reader = new Reader(content.startsWith("\uFEFF") ? content.substring(1) : content);
        while (true) {
            List<String> record = reader.next();
            if (record == null) {
                return new TokenTable(entries);
            }
            int line = reader.recordLine;
            if (record.size() < 3) {
                throw new MalformedTokenFileException(line,
                        "must have at least 3 columns (token, user name, user uid), found " + record.size());
            }
            String token = record.get(0);
            if (token.isEmpty()) {
                LOG.warn("Token file {} line {}: empty token, line skipped", source, line);
                continue;
            }
            byte[] digest = TokenTable.sha256(token);
            UserInfo user = new UserInfo(record.get(1), record.get(2),
                    groups(record.size() > 3 ? record.get(3) : ""), Map.of());
            if (entries.put(TokenTable.hash(digest), new TokenTable.Entry(digest, user)) != null) {
                LOG.warn("Token file {} line {}: duplicate token, this line replaces the earlier one", source, line);
            }
        }
    }

    private static List<String> groups(String column) {
        Set<String> groups = new LinkedHashSet<>();
        for (String group : column.split(",")) {
            if (!group.isBlank()) {
                groups.add(group.trim());
            }
        }
        groups.add(UserInfo.ALL_AUTHENTICATED);
        return List.copyOf(groups);
    }

    /** Go encoding/csv's record reader: quoted fields may hold commas, {@code ""} and line breaks. */
    private static final class Reader {
        private final String text;
        private int pos;
        private int line = 1;
        /** The line the last record returned by {@link #next()} starts on. */
        int recordLine;

        Reader(String text) {
            this.text = text;
        }

        /** The next record, or null at the end; skips blank and comment lines. */
        List<String> next() throws MalformedTokenFileException {
            while (pos < text.length()) {
                int lineEnd = text.indexOf('\n', pos);
                String rest = text.substring(pos, lineEnd < 0 ? text.length() : lineEnd);
                if (rest.isBlank() || rest.startsWith("#")) {
                    pos = lineEnd < 0 ? text.length() : lineEnd + 1;
                    line++;
                    continue;
                }
                return record();
            }
            return null;
        }

        private List<String> record() throws MalformedTokenFileException {
            recordLine = line;
            List<String> fields = new ArrayList<>();
            StringBuilder field = new StringBuilder();
            while (true) {
                if (pos < text.length() && text.charAt(pos) == '"') {
                    pos++;
                    while (true) {
                        if (pos >= text.length()) {
                            throw new MalformedTokenFileException(recordLine, "quoted field is not closed");
                        }
                        char c = text.charAt(pos++);
                        if (c == '"' && pos < text.length() && text.charAt(pos) == '"') {
                            field.append('"');
                            pos++;
                        } else if (c == '"') {
                            break;
                        } else {
                            if (c == '\n') {
                                line++;
                            }
                            field.append(c);
                        }
                    }
                    if (!atFieldEnd()) {
                        throw new MalformedTokenFileException(line, "extraneous or missing \" in quoted field");
                    }
                } else {
                    while (!atFieldEnd()) {
                        char c = text.charAt(pos++);
                        if (c == '"') {
                            throw new MalformedTokenFileException(line, "bare \" in a field that is not quoted");
                        }
                        field.append(c);
                    }
                }
                fields.add(field.toString());
                field.setLength(0);
                if (pos >= text.length()) {
                    return fields;
                }
                char separator = text.charAt(pos++);
                if (separator == '\r' && pos < text.length()) {
                    pos++; // the '\n' of "\r\n"
                }
                if (separator != ',') {
                    line++;
                    return fields;
                }
            }
        }

        private boolean atFieldEnd() {
            if (pos >= text.length()) {
                return true;
            }
            char c = text.charAt(pos);
            return c == ',' || c == '\n' || (c == '\r' && pos + 1 < text.length() && text.charAt(pos + 1) == '\n')
                    || (c == '\r' && pos + 1 == text.length());
        }
    }
}
