package io.kubelix.runtime.codec;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.StatusException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** YAML bodies read as kube reads them (sigs.k8s.io/yaml over go-yaml v2). */
class YamlDecoderTest {

    @Test
    void aliasesAreTheirAnchorsValue() {
        assertEquals(json("{\"x\":\"hello\",\"z\":\"hello\",\"m\":{\"a\":1},\"p\":{\"a\":1}}"),
                yaml("x: &v hello\nz: *v\nm: &m {a: 1}\np: *m\n"));
    }

    @Test
    void mergeKeysMergeMapsAndExplicitKeysAfterThemWin() {
        assertEquals(json("{\"base\":{\"a\":1,\"b\":2},\"o\":{\"a\":1,\"b\":3,\"c\":4}}"),
                yaml("base: &b {a: 1, b: 2}\no:\n  <<: *b\n  b: 3\n  c: 4\n"));
        assertEquals(json("{\"p\":{\"a\":1},\"q\":{\"a\":2},\"o\":{\"a\":1}}"),
                yaml("p: &p {a: 1}\nq: &q {a: 2}\no: {<<: [*p, *q]}\n"), "the first map of a list wins");
    }

    @Test
    void aBillionLaughsIsRefusedNotExpanded() {
        StringBuilder doc = new StringBuilder("a0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (int i = 1; i < 10; i++) {
            doc.append("a").append(i).append(": &a").append(i).append(" [");
            for (int j = 0; j < 9; j++) {
                doc.append(j == 0 ? "" : ",").append("*a").append(i - 1);
            }
            doc.append("]\n");
        }
        StatusException e = assertThrows(StatusException.class, () -> yaml(doc.toString()));
        assertEquals(400, e.code());
        assertTrue(e.getMessage().contains("excessive aliasing"), e.getMessage());
        StatusException self = assertThrows(StatusException.class, () -> yaml("a: &a [*a]\n"));
        assertEquals(400, self.code(), "a list holding itself is refused too");
    }

    @Test
    void plainScalarsResolveAsGoYamlResolvesThem() {
        assertEquals(json("{\"a\":true,\"b\":false,\"c\":true,\"d\":null,\"e\":31,\"f\":15,\"g\":1000,\"h\":1.5,"
                        + "\"i\":\"2001-12-14\",\"j\":\"1:30\",\"k\":\"1e400\",\"l\":\"yes\",\"m\":-5,\"nn\":18446744073709551615}"),
                yaml("a: yes\nb: off\nc: y\nd: ~\ne: 0x1F\nf: 017\ng: 1_000\nh: 1.5\ni: 2001-12-14\nj: 1:30\nk: 1e400\n"
                        + "l: \"yes\"\nm: -5\nnn: 18446744073709551615\n"));
    }

    @Test
    void mapKeysBecomeStringsAsSigsYamlWritesThem() {
        assertEquals(json("{\"true\":1,\"5\":2,\"on\":3,\"false\":4}"), yaml("on: 1\n5: 2\n\"on\": 3\nn: 4\n"));
        assertEquals(400, assertThrows(StatusException.class, () -> yaml("~: 1\n")).code());
        assertEquals(400, assertThrows(StatusException.class, () -> yaml("? [a]\n: 1\n")).code());
    }

    @Test
    void whatJsonCannotHoldIsABadRequest() {
        assertEquals(400, assertThrows(StatusException.class, () -> yaml("a: .nan\n")).code());
        assertEquals(400, assertThrows(StatusException.class, () -> yaml("a: [\n")).code());
    }

    private static JsonNode yaml(String s) {
        return Codecs.decode(s.getBytes(StandardCharsets.UTF_8), true);
    }

    private static JsonNode json(String s) {
        return Codecs.decode(s.getBytes(StandardCharsets.UTF_8), false);
    }
}
