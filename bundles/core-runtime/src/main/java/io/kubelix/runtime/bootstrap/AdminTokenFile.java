package io.kubelix.runtime.bootstrap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The admin line of a kube-apiserver {@code --token-auth-file} ({@code token,user,uid,"group1,group2"}).
 * The file may hold other users' lines, added by hand; only the first line for {@code admin} matters
 * here. The authn-token bundle is what authenticates with the file.
 */
final class AdminTokenFile {

    static final String ADMIN_USER = "admin";
    static final String ADMIN_GROUP = "system:masters";

    private AdminTokenFile() {
    }

    /** A new token: 32 random bytes, URL-safe base64 without padding (safe in CSV, YAML and headers). */
    static String newToken(SecureRandom random) {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static String adminLine(String token) {
        return token + "," + ADMIN_USER + "," + ADMIN_USER + ",\"" + ADMIN_GROUP + "\"\n";
    }

    /**
     * The token of the first {@code admin} line.
     *
     * @throws IllegalStateException when the file has no usable admin line, saying how to fix it
     */
    static String readAdminToken(Path file) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IOException("cannot read " + file + ": " + e.getMessage()
                    + " (check its permissions, or delete it to have a new admin token generated)", e);
        }
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Optional<List<String>> fields = split(line);
            if (fields.isEmpty()) {
                throw PemFiles.corrupt(file, "line " + (i + 1) + " is not valid CSV (an unbalanced quote?)", null);
            }
            List<String> record = fields.get();
            if (record.size() >= 3 && ADMIN_USER.equals(record.get(1))) {
                if (record.get(0).isEmpty()) {
                    throw PemFiles.corrupt(file, "line " + (i + 1) + " gives user admin an empty token", null);
                }
                return record.get(0);
            }
        }
        throw new IllegalStateException(file + " has no line for user " + ADMIN_USER + "; add one such as "
                + "'<token>,admin,admin,\"system:masters\"', or delete the file to have it regenerated");
    }

    /** Splits one CSV line with RFC 4180 quoting ({@code ""} is a quote inside a quoted field); empty when malformed. */
    static Optional<List<String>> split(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        int i = 0;
        while (true) {
            if (i < line.length() && line.charAt(i) == '"') {
                i++;
                while (true) {
                    if (i >= line.length()) {
                        return Optional.empty();
                    }
                    char c = line.charAt(i++);
                    if (c == '"') {
                        if (i < line.length() && line.charAt(i) == '"') {
                            field.append('"');
                            i++;
                        } else {
                            break;
                        }
                    } else {
                        field.append(c);
                    }
                }
                if (i < line.length() && line.charAt(i) != ',') {
                    return Optional.empty();
                }
            } else {
                while (i < line.length() && line.charAt(i) != ',') {
                    char c = line.charAt(i++);
                    if (c == '"') {
                        return Optional.empty();
                    }
                    field.append(c);
                }
            }
            fields.add(field.toString());
            field.setLength(0);
            if (i >= line.length()) {
                return Optional.of(fields);
            }
            i++; // the comma
        }
    }
}
