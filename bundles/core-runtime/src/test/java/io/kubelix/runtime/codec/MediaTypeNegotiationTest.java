package io.kubelix.runtime.codec;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Accept headers ordered and matched as kube-apiserver's goautoneg and NegotiateMediaTypeOptions do. */
class MediaTypeNegotiationTest {
    private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";

    @Test
    void rangesAreOrderedByQualityThenSpecificity() {
        assertEquals(List.of("application/json", "application/yaml", "*/*"),
                types("*/*, application/yaml;q=0.9, application/json"));
        assertEquals(List.of(PROTOBUF, "application/json"), types("application/json;q=0.5, " + PROTOBUF));
        assertEquals(List.of(PROTOBUF, "application/json"), types(PROTOBUF + ",application/json"), "equal ones keep their order");
        assertEquals(List.of("application/json"), types("application, application/json"), "a range needs a subtype");
        assertEquals(List.of(), MediaType.parseAcceptByPreference("application/json;q=0.5").get(0).params().keySet()
                .stream().toList(), "q is not a parameter");
    }

    @Test
    void unrestrictedAnswersFollowTheFirstRangeAServerWrites() {
        assertEquals(PROTOBUF, MediaTypeNegotiation.unrestricted(PROTOBUF + ", application/json"));
        assertEquals(PROTOBUF, MediaTypeNegotiation.unrestricted(PROTOBUF + ";stream=watch"));
        assertEquals("application/json", MediaTypeNegotiation.unrestricted(PROTOBUF + ";q=0.1, */*"));
        assertEquals("application/json", MediaTypeNegotiation.unrestricted("application/*"));
        assertEquals("application/yaml", MediaTypeNegotiation.unrestricted("text/html, application/yaml"));
        assertEquals("application/json", MediaTypeNegotiation.unrestricted(PROTOBUF + ";as=Table;g=meta.k8s.io;v=v1"),
                "a conversion is no endpoint's here: nothing matches, and JSON is written");
        assertEquals("application/json", MediaTypeNegotiation.unrestricted(null));
    }

    private static List<String> types(String header) {
        return MediaType.parseAcceptByPreference(header).stream().map(MediaType::type).toList();
    }
}
