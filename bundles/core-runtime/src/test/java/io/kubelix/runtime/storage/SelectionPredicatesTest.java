package io.kubelix.runtime.storage;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.storage.SelectionPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** labels.Parse and fields.ParseSelector semantics, from apimachinery's selector_test.go. */
class SelectionPredicatesTest {
    private static final ObjectNode PROD_WEB = object("default", "web", Map.of("env", "prod", "tier", "frontend"));
    private static final ObjectNode DEV_DB = object("default", "db", Map.of("env", "dev", "tier", "backend"));
    private static final ObjectNode UNLABELLED = object("kube-system", "plain", Map.of());

    @Test
    void emptySelectorsMatchEverything() {
        assertSame(SelectionPredicate.EVERYTHING, SelectionPredicates.of("", ""));
        assertSame(SelectionPredicate.EVERYTHING, SelectionPredicates.of(null, null));
        assertSame(SelectionPredicate.EVERYTHING, SelectionPredicates.of("  ", null));
    }

    /** Expected matches of PROD_WEB, DEV_DB and UNLABELLED. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "env=prod                      | true  | false | false",
            "env==prod                     | true  | false | false",
            "env = prod                    | true  | false | false",
            "env!=prod                     | false | true  | true",
            "env in (prod,dev)             | true  | true  | false",
            "env in (prod)                 | true  | false | false",
            "env in ( dev , qa )           | false | true  | false",
            "env in(dev)                   | false | true  | false",
            "env notin (prod)              | false | true  | true",
            "env notin(prod,dev)           | false | false | true",
            "env                           | true  | true  | false",
            "!env                          | false | false | true",
            "missing                       | false | false | false",
            "!missing                      | true  | true  | true",
            "env=prod,tier=frontend        | true  | false | false",
            "env=prod,tier=backend         | false | false | false",
            "env in (prod,dev),tier!=backend | true | false | false",
            "env,!missing,tier notin (backend) | true | false | false",
            "env=                          | false | false | false",
    })
    void labelSelector(String selector, boolean prodWeb, boolean devDb, boolean unlabelled) {
        SelectionPredicate p = SelectionPredicates.of(selector, "");

        assertFalse(p.matchesEverything());
        assertEquals(prodWeb, p.matches(PROD_WEB), "prod web");
        assertEquals(devDb, p.matches(DEV_DB), "dev db");
        assertEquals(unlabelled, p.matches(UNLABELLED), "unlabelled");
    }

    @Test
    void emptyValueMatchesAnEmptyLabel() {
        ObjectNode empty = object("default", "e", Map.of("env", ""));

        assertTrue(SelectionPredicates.of("env=", "").matches(empty));
        assertFalse(SelectionPredicates.of("env!=", "").matches(empty));
        assertTrue(SelectionPredicates.of("env!=", "").matches(PROD_WEB));
    }

    @Test
    void prefixedKeys() {
        ObjectNode o = object("default", "a", Map.of("app.kubernetes.io/name", "web"));

        assertTrue(SelectionPredicates.of("app.kubernetes.io/name=web", "").matches(o));
        assertTrue(SelectionPredicates.of("app.kubernetes.io/name in (web,api)", "").matches(o));
        assertFalse(SelectionPredicates.of("!app.kubernetes.io/name", "").matches(o));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "-env=prod",                 // key must begin with an alphanumeric character
            "env_=prod",                 // ... and end with one
            "a/b/c=x",                   // at most one prefix
            "Bad Prefix/env=x",
            "env=a b",                   // a value is one token
            "env=-prod",                 // value must begin with an alphanumeric character
            "env=prod,",                 // nothing after the comma
            ",env=prod",
            "env=prod,,tier=a",
            "env in (prod",              // unbalanced parentheses
            "env in prod",
            "x==a==b",
            "!x=a",
            "x=a||y=b",
            "env in (p!d)",
            "x=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", // 64 characters
    })
    void invalidLabelSelectorIsBadRequest(String selector) {
        StatusException e = assertThrows(StatusException.class, () -> SelectionPredicates.of(selector, ""));

        assertEquals(400, e.code());
        assertEquals(StatusReason.BAD_REQUEST, e.reason());
    }

    @Test
    void valueOfSixtyThreeCharactersIsValid() {
        String v = "a".repeat(63);

        assertTrue(SelectionPredicates.of("x=" + v, "").matches(object("default", "a", Map.of("x", v))));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "metadata.name=web                          | true  | false | false",
            "metadata.name==web                         | true  | false | false",
            "metadata.name!=web                         | false | true  | true",
            "metadata.namespace=default                 | true  | true  | false",
            "metadata.namespace!=default                | false | false | true",
            "metadata.namespace=default,metadata.name=db | false | true | false",
            "metadata.name=nope                         | false | false | false",
    })
    void fieldSelector(String selector, boolean prodWeb, boolean devDb, boolean unlabelled) {
        SelectionPredicate p = SelectionPredicates.of("", selector);

        assertFalse(p.matchesEverything());
        assertEquals(prodWeb, p.matches(PROD_WEB), "web");
        assertEquals(devDb, p.matches(DEV_DB), "db");
        assertEquals(unlabelled, p.matches(UNLABELLED), "plain");
    }

    @Test
    void labelAndFieldSelectorsMustBothMatch() {
        SelectionPredicate p = SelectionPredicates.of("env=prod", "metadata.namespace=default");

        assertTrue(p.matches(PROD_WEB));
        assertFalse(p.matches(DEV_DB));
        assertFalse(SelectionPredicates.of("env=prod", "metadata.name=db").matches(PROD_WEB));
    }

    @Test
    void unsupportedFieldIsBadRequestNamingTheField() {
        StatusException e = assertThrows(StatusException.class, () -> SelectionPredicates.of("", "spec.nodeName=n1"));

        assertEquals(400, e.code());
        assertEquals(StatusReason.BAD_REQUEST, e.reason());
        assertEquals("field label not supported: spec.nodeName", e.getMessage());
    }

    @Test
    void fieldsTheResourceDeclaresCanBeSelected() {
        ObjectNode pod = object("default", "web", Map.of());
        pod.putObject("spec").put("nodeName", "n1");
        Map<String, java.util.function.Function<ObjectNode, String>> fields =
                Map.of("spec.nodeName", o -> o.path("spec").path("nodeName").asText(""));

        assertTrue(SelectionPredicates.of("", "spec.nodeName=n1", fields).matches(pod));
        assertFalse(SelectionPredicates.of("", "spec.nodeName=n2", fields).matches(pod));
        assertTrue(SelectionPredicates.of("", "spec.nodeName!=n2,metadata.name=web", fields).matches(pod));
        // A declared field that is absent reads as the empty string.
        assertTrue(SelectionPredicates.of("", "spec.nodeName=", fields).matches(PROD_WEB));
        assertThrows(StatusException.class, () -> SelectionPredicates.of("", "status.phase=Running", fields));
    }

    @Test
    void theValueAFieldSelectorRequiresIsKnownForIndexing() {
        Map<String, java.util.function.Function<ObjectNode, String>> fields =
                Map.of("spec.nodeName", o -> o.path("spec").path("nodeName").asText(""));

        assertEquals("n1", SelectionPredicates.of("env=prod", "spec.nodeName=n1", fields).requiredFieldValue("spec.nodeName"));
        assertEquals("n1", SelectionPredicates.of("", "metadata.name=a,spec.nodeName==n1", fields)
                .requiredFieldValue("spec.nodeName"));
        assertEquals("", SelectionPredicates.of("", "spec.nodeName=", fields).requiredFieldValue("spec.nodeName"));
        assertEquals(null, SelectionPredicates.of("", "spec.nodeName!=n1", fields).requiredFieldValue("spec.nodeName"));
        assertEquals(null, SelectionPredicates.of("env=prod", "", fields).requiredFieldValue("spec.nodeName"));
        assertEquals(null, SelectionPredicate.EVERYTHING.requiredFieldValue("spec.nodeName"));
    }

    @Test
    void fieldRequirementWithoutOperatorIsBadRequest() {
        StatusException e = assertThrows(StatusException.class, () -> SelectionPredicates.of("", "metadata.name"));

        assertEquals(400, e.code());
        assertTrue(e.getMessage().contains("metadata.name"), e.getMessage());
    }

    private static ObjectNode object(String namespace, String name, Map<String, String> labels) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("apiVersion", "v1");
        o.put("kind", "ConfigMap");
        ObjectNode meta = o.putObject("metadata");
        meta.put("name", name);
        meta.put("namespace", namespace);
        if (!labels.isEmpty()) {
            ObjectNode l = meta.putObject("labels");
            labels.forEach(l::put);
        }
        return o;
    }
}
