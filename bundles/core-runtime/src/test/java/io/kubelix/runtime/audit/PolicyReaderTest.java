package io.kubelix.runtime.audit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kube's policy reader and ValidatePolicy, message for message. */
class PolicyReaderTest {

    @Test
    void readsEveryFieldOfAV1Policy() {
        Policy p = PolicyReader.parse("""
                apiVersion: audit.k8s.io/v1
                kind: Policy
                omitStages: [RequestReceived]
                omitManagedFields: true
                rules:
                - level: None
                  users: ["system:kube-proxy"]
                  verbs: ["watch"]
                  resources:
                  - group: ""
                    resources: ["endpoints", "services", "pods/log"]
                    resourceNames: ["a"]
                - level: Metadata
                  userGroups: ["system:authenticated"]
                  nonResourceURLs: ["/api*", "/version"]
                  omitStages: [ResponseStarted]
                  omitManagedFields: false
                - level: RequestResponse
                  namespaces: ["kube-system"]
                  unknownField: ignored, as kube's lenient decoding ignores it
                """.getBytes(StandardCharsets.UTF_8));
        assertEquals(Set.of(Stage.RequestReceived), p.omitStages());
        assertTrue(p.omitManagedFields());
        assertEquals(3, p.rules().size());
        Policy.Rule first = p.rules().get(0);
        assertEquals(Level.None, first.level());
        assertEquals(List.of("system:kube-proxy"), first.users());
        assertEquals(new Policy.GroupResources("", List.of("endpoints", "services", "pods/log"), List.of("a")),
                first.resources().get(0));
        assertNull(first.omitManagedFields());
        Policy.Rule second = p.rules().get(1);
        assertEquals(List.of("/api*", "/version"), second.nonResourceURLs());
        assertEquals(Set.of(Stage.ResponseStarted), second.omitStages());
        assertFalse(second.omitManagedFields());
        assertEquals(List.of("kube-system"), p.rules().get(2).namespaces());
    }

    @Test
    void invalidRulesAreRefusedWithKubesFieldErrorsAllAtOnce() {
        assertEquals("rules[0].level: Required value", message("""
                rules:
                - users: [a]
                """));
        assertEquals("rules[0].level: Unsupported value: \"Everything\": supported values: \"None\", \"Metadata\","
                + " \"Request\", \"RequestResponse\"", message("""
                rules:
                - level: Everything
                """));
        assertEquals("[rules[0].nonResourceURLs[0]: Invalid value: \"api\": non-resource URL rules must begin with a"
                + " '/' character, rules[0].nonResourceURLs[1]: Invalid value: \"/a*b\": non-resource URL wildcards '*'"
                + " must be the final character of the rule]", message("""
                rules:
                - level: Metadata
                  nonResourceURLs: ["api", "/a*b", "*"]
                """));
        assertEquals("rules[0].nonResourceURLs: Invalid value: []string{\"/healthz\"}: rules cannot apply to both"
                + " regular resources and non-resource URLs", message("""
                rules:
                - level: Metadata
                  namespaces: [default]
                  nonResourceURLs: ["/healthz"]
                """));
        assertEquals("rules[0].resources.resourceNames: Invalid value: []string{\"x\"}: using resourceNames requires"
                + " at least one resource", message("""
                rules:
                - level: Metadata
                  resources: [{group: "", resourceNames: [x]}]
                """));
        assertTrue(message("""
                rules:
                - level: Metadata
                  resources: [{group: "rbac.authorization.k8s.io/v1"}]
                """).startsWith("rules[0].resources.group: Invalid value: \"rbac.authorization.k8s.io/v1\": a lowercase"
                + " RFC 1123 subdomain"));
        assertEquals("[omitStages[0]: Invalid value: \"Done\": allowed stages are RequestReceived,ResponseStarted,"
                + "ResponseComplete,Panic, rules[0].omitStages[0]: Invalid value: \"Never\": allowed stages are "
                + "RequestReceived,ResponseStarted,ResponseComplete,Panic]", message("""
                omitStages: [Done]
                rules:
                - level: Metadata
                  omitStages: [Never]
                """));
    }

    @Test
    void aPolicyNeedsItsKindVersionAndARule() {
        assertEquals("loaded illegal policy with 0 rules", message(""));
        assertEquals("unknown group version field /, Kind= in policy",
                assertThrows(IllegalArgumentException.class, () -> PolicyReader.parse("rules: []".getBytes()))
                        .getMessage());
        assertEquals("failed decoding: no kind \"Policy\" is registered for version \"audit.k8s.io/v1beta1\" in scheme"
                + " \"k8s.io/apiserver/pkg/audit/scheme.go:30\"", assertThrows(IllegalArgumentException.class,
                () -> PolicyReader.parse("apiVersion: audit.k8s.io/v1beta1\nkind: Policy\n".getBytes())).getMessage());
        assertEquals("failed decoding: json: cannot unmarshal string into Go struct field PolicyRule.rules.users of"
                + " type []string", message("""
                rules:
                - level: Metadata
                  users: admin
                """));
    }

    @Test
    void theFileIsNamedInTheMessage(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("policy.yaml");
        Files.writeString(file, "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: Bogus}]\n");
        assertEquals("rules[0].level: Unsupported value: \"Bogus\": supported values: \"None\", \"Metadata\", "
                + "\"Request\", \"RequestResponse\": from file " + file, assertThrows(IllegalArgumentException.class,
                () -> PolicyReader.read(file)).getMessage());
        Path missing = dir.resolve("missing.yaml");
        assertEquals("failed to read file path \"" + missing + "\": open " + missing + ": no such file or directory",
                assertThrows(IllegalArgumentException.class, () -> PolicyReader.read(missing)).getMessage());
    }

    private static String message(String body) {
        String yaml = "apiVersion: audit.k8s.io/v1\nkind: Policy\n" + body;
        return assertThrows(IllegalArgumentException.class,
                () -> PolicyReader.parse(yaml.getBytes(StandardCharsets.UTF_8))).getMessage();
    }
}
