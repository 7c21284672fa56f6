package io.kubelix.runtime.controller.bootstrap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.authn.ClusterAuthenticationInfo;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.BiFunction;

/**
 * What the {@code kube-system/extension-apiserver-authentication} ConfigMap says (kube's
 * {@code ClusterAuthenticationInfo} as the cluster-authentication-trust controller reads and writes
 * it): the client CA bundle, and the request header CA bundle with the request header settings as
 * JSON arrays. Trust is only ever added, as kube adds it, since several servers may share the
 * ConfigMap: the CAs and settings already there are kept beside the current ones, without
 * duplicates, and a CA is dropped only once it has expired.
 *
 * @param clientCA        client certificate CAs ({@code client-ca-file})
 * @param requestHeaderCA front proxy CAs ({@code requestheader-client-ca-file}); without any, no request header key
 */
record ClusterAuthenticationTrust(List<X509Certificate> clientCA, List<X509Certificate> requestHeaderCA,
                                  List<String> allowedNames, List<String> usernameHeaders, List<String> uidHeaders,
                                  List<String> groupHeaders, List<String> extraHeaderPrefixes) {
    static final String CLIENT_CA = "client-ca-file";
    static final String REQUEST_HEADER_CA = "requestheader-client-ca-file";
    static final String ALLOWED_NAMES = "requestheader-allowed-names";
    static final String USERNAME_HEADERS = "requestheader-username-headers";
    static final String UID_HEADERS = "requestheader-uid-headers";
    static final String GROUP_HEADERS = "requestheader-group-headers";
    static final String EXTRA_HEADERS_PREFIX = "requestheader-extra-headers-prefix";
    /** kube keeps a certificate until five minutes after it expires. */
    static final Duration EXPIRY_SLACK = Duration.ofMinutes(5);
    static final ClusterAuthenticationTrust NONE = new ClusterAuthenticationTrust(List.of(), List.of(), List.of(),
            List.of(), List.of(), List.of(), List.of());

    ClusterAuthenticationTrust {
        clientCA = List.copyOf(clientCA);
        requestHeaderCA = List.copyOf(requestHeaderCA);
        allowedNames = List.copyOf(allowedNames);
        usernameHeaders = List.copyOf(usernameHeaders);
        uidHeaders = List.copyOf(uidHeaders);
        groupHeaders = List.copyOf(groupHeaders);
        extraHeaderPrefixes = List.copyOf(extraHeaderPrefixes);
    }

    /**
     * What an authenticator trusts now, its CA files read.
     *
     * @throws IOException when a file exists but cannot be read or holds no valid PEM certificates
     */
    static ClusterAuthenticationTrust of(ClusterAuthenticationInfo info) throws IOException {
        return new ClusterAuthenticationTrust(read(info.clientCAFile()), read(info.requestHeaderCAFile()),
                info.requestHeaderAllowedNames(), info.usernameHeaders(), info.uidHeaders(), info.groupHeaders(),
                info.extraHeaderPrefixes());
    }

    /**
     * What a ConfigMap's data says (getClusterAuthenticationInfoFor). A value that cannot be read,
     * as someone may have edited it, counts as absent, so the next write puts it right.
     */
    static ClusterAuthenticationTrust of(JsonNode data, ObjectMapper json) {
        return new ClusterAuthenticationTrust(certificates(data.path(CLIENT_CA).asText("")),
                certificates(data.path(REQUEST_HEADER_CA).asText("")), strings(data, ALLOWED_NAMES, json),
                strings(data, USERNAME_HEADERS, json), strings(data, UID_HEADERS, json),
                strings(data, GROUP_HEADERS, json), strings(data, EXTRA_HEADERS_PREFIX, json));
    }

    /** Both together (combinedClusterAuthenticationInfo): this one's values first, no duplicates, no expired CA. */
    ClusterAuthenticationTrust combine(ClusterAuthenticationTrust other, Instant now) {
        BiFunction<List<String>, List<String>, List<String>> union = (a, b) -> {
            LinkedHashSet<String> all = new LinkedHashSet<>(a);
            all.addAll(b);
            return List.copyOf(all);
        };
        return new ClusterAuthenticationTrust(certificates(clientCA, other.clientCA, now),
                certificates(requestHeaderCA, other.requestHeaderCA, now), union.apply(allowedNames, other.allowedNames),
                union.apply(usernameHeaders, other.usernameHeaders), union.apply(uidHeaders, other.uidHeaders),
                union.apply(groupHeaders, other.groupHeaders), union.apply(extraHeaderPrefixes, other.extraHeaderPrefixes));
    }

    /**
     * The ConfigMap's data (getConfigMapDataFor): {@code client-ca-file} when there is a client CA;
     * the request header keys only with a request header CA.
     */
    ObjectNode data(ObjectMapper json) {
        ObjectNode data = json.createObjectNode();
        if (!clientCA.isEmpty()) {
            data.put(CLIENT_CA, pem(clientCA));
        }
        if (!requestHeaderCA.isEmpty()) {
            try {
                data.put(USERNAME_HEADERS, json.writeValueAsString(usernameHeaders));
                data.put(UID_HEADERS, json.writeValueAsString(uidHeaders));
                data.put(GROUP_HEADERS, json.writeValueAsString(groupHeaders));
                data.put(EXTRA_HEADERS_PREFIX, json.writeValueAsString(extraHeaderPrefixes));
                data.put(REQUEST_HEADER_CA, pem(requestHeaderCA));
                data.put(ALLOWED_NAMES, json.writeValueAsString(allowedNames));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
        return data;
    }

    private static List<X509Certificate> read(Path file) throws IOException {
        if (file == null) {
            return List.of();
        }
        byte[] pem;
        try {
            pem = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return List.of(); // not written yet (the server's own CA at first start): the next check reads it
        }
        List<X509Certificate> certificates = certificates(new String(pem, StandardCharsets.US_ASCII));
        if (certificates.isEmpty()) {
            throw new IOException(file + " holds no PEM certificates");
        }
        return certificates;
    }

    /** The certificates of a PEM bundle; none when it is empty or malformed. */
    static List<X509Certificate> certificates(String pem) {
        if (pem.isBlank()) {
            return List.of();
        }
        try {
            List<X509Certificate> out = new ArrayList<>();
            CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))
                    .forEach(c -> out.add((X509Certificate) c));
            return out;
        } catch (CertificateException e) {
            return List.of();
        }
    }

    /** combineCertLists: both lists without the expired certificates, each certificate once. */
    private static List<X509Certificate> certificates(List<X509Certificate> a, List<X509Certificate> b, Instant now) {
        Instant expired = now.minus(EXPIRY_SLACK);
        List<X509Certificate> out = new ArrayList<>();
        for (List<X509Certificate> list : List.of(a, b)) {
            for (X509Certificate c : list) {
                if (c.getNotAfter().toInstant().isAfter(expired)
                        && out.stream().noneMatch(o -> Arrays.equals(raw(o), raw(c)))) {
                    out.add(c);
                }
            }
        }
        return out;
    }

    private static List<String> strings(JsonNode data, String key, ObjectMapper json) {
        String value = data.path(key).asText("");
        if (value.isEmpty()) {
            return List.of();
        }
        try {
            List<String> out = new ArrayList<>();
            for (JsonNode s : json.readTree(value)) {
                if (s.isTextual()) {
                    out.add(s.asText());
                }
            }
            return out;
        } catch (JsonProcessingException e) {
            return List.of();
        }
    }

    /** Go's pem.Encode of each certificate: 64 base64 characters a line. */
    static String pem(List<X509Certificate> certificates) {
        StringBuilder out = new StringBuilder();
        Base64.Encoder base64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));
        for (X509Certificate c : certificates) {
            out.append("-----BEGIN CERTIFICATE-----\n").append(base64.encodeToString(raw(c)))
                    .append("\n-----END CERTIFICATE-----\n");
        }
        return out.toString();
    }

    private static byte[] raw(X509Certificate c) {
        try {
            return c.getEncoded();
        } catch (CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
    }
}
