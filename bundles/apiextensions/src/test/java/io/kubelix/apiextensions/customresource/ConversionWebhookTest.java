package io.kubelix.apiextensions.customresource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.kubelix.api.errors.StatusException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A CRD's conversion webhook against a webhook served on loopback: reviews sent and answers checked as kube's. */
class ConversionWebhookTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private HttpServer server;
    private final List<JsonNode> reviews = new ArrayList<>();
    /** The answer to a review. */
    private volatile Function<JsonNode, JsonNode> answer = ConversionWebhookTest::convert;

    @BeforeEach
    void serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/convert", exchange -> {
            JsonNode review = JSON.readTree(exchange.getRequestBody());
            reviews.add(review);
            byte[] body = JSON.writeValueAsBytes(answer.apply(review));
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    /** A webhook that moves spec.size to spec.replicas and sets a label, as a v1-to-v2 converter would. */
    private static JsonNode convert(JsonNode review) {
        ObjectNode out = JSON.createObjectNode().put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
        ObjectNode response = out.putObject("response").put("uid", review.at("/request/uid").asText());
        response.putObject("result").put("status", "Success");
        for (JsonNode o : review.at("/request/objects")) {
            ObjectNode c = ((ObjectNode) o.deepCopy()).put("apiVersion", review.at("/request/desiredAPIVersion").asText());
            ((ObjectNode) c.get("metadata")).putObject("labels").put("converted", "yes");
            ((ObjectNode) c.get("metadata")).put("generation", 99);
            response.withArray("convertedObjects").add(c);
        }
        return out;
    }

    private ConversionWebhook webhook(String versions) throws IOException {
        String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/convert";
        return new ConversionWebhook(JSON.readTree("{\"clientConfig\":{\"url\":\"" + url + "\"},\"conversionReviewVersions\":"
                + versions + "}"), null, JSON);
    }

    private static ObjectNode widget(String apiVersion, String name) {
        ObjectNode o = JSON.createObjectNode().put("apiVersion", apiVersion).put("kind", "Widget");
        o.putObject("metadata").put("name", name).put("uid", "u-" + name);
        return o;
    }

    @Test
    void aListIsConvertedInOneReviewKeepingMetadata() throws Exception {
        List<ObjectNode> out = webhook("[\"v1\"]").convert(List.of(widget("example.com/v1", "a"), widget("example.com/v2", "b"),
                widget("example.com/v1", "c")), "example.com/v2", true);
        assertEquals(1, reviews.size());
        JsonNode review = reviews.get(0);
        assertEquals("apiextensions.k8s.io/v1", review.path("apiVersion").asText());
        assertEquals("example.com/v2", review.at("/request/desiredAPIVersion").asText());
        assertEquals(2, review.at("/request/objects").size());
        assertEquals(List.of("a", "b", "c"), out.stream().map(o -> o.at("/metadata/name").asText()).toList());
        assertEquals("yes", out.get(0).at("/metadata/labels/converted").asText());
        assertEquals(true, out.get(0).at("/metadata/generation").isMissingNode(), "metadata other than labels is the original's");
        assertEquals("example.com/v2", out.get(2).path("apiVersion").asText());
        webhook("[\"v1\"]").convert(List.of(widget("example.com/v2", "d")), "example.com/v2", false);
        assertEquals(1, reviews.size(), "an object already in the version wanted is not sent");
    }

    @Test
    void v1beta1ReviewsWhenTheCrdListsOnlyThat() throws Exception {
        answer = review -> {
            ObjectNode out = (ObjectNode) convert(review);
            return out.put("apiVersion", "apiextensions.k8s.io/v1beta1");
        };
        webhook("[\"v1beta2\", \"v1beta1\"]").convert(List.of(widget("example.com/v1", "a")), "example.com/v2", false);
        assertEquals("apiextensions.k8s.io/v1beta1", reviews.get(0).path("apiVersion").asText());
    }

    @Test
    void failuresAreKubesInternalErrors() throws Exception {
        answer = review -> {
            ObjectNode out = (ObjectNode) convert(review);
            ((ObjectNode) out.get("response")).putObject("result").put("status", "Failure").put("message", "size too big");
            return out;
        };
        StatusException failed = assertThrows(StatusException.class,
                () -> webhook("[\"v1\"]").convert(List.of(widget("example.com/v1", "a")), "example.com/v2", false));
        assertEquals(500, failed.code());
        assertEquals("Internal error occurred: conversion webhook for example.com/v1, Kind=Widget failed: size too big",
                failed.getMessage());
        answer = review -> ((ObjectNode) convert(review)).put("kind", "AdmissionReview");
        assertEquals("Internal error occurred: conversion webhook for example.com/v1, Kind=Widget failed: expected webhook "
                        + "response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1, Kind=AdmissionReview",
                assertThrows(StatusException.class, () -> webhook("[\"v1\"]").convert(List.of(widget("example.com/v1", "a")),
                        "example.com/v2", false)).getMessage());
        answer = review -> {
            ObjectNode out = (ObjectNode) convert(review);
            ((ObjectNode) out.at("/response/convertedObjects/0")).put("apiVersion", "example.com/v3");
            return out;
        };
        assertEquals("Internal error occurred: conversion webhook for example.com/v1, Kind=Widget returned invalid object at "
                        + "index 0: invalid groupVersion (expected example.com/v2, received example.com/v3)",
                assertThrows(StatusException.class, () -> webhook("[\"v1\"]").convert(List.of(widget("example.com/v1", "a")),
                        "example.com/v2", false)).getMessage());
        answer = review -> {
            ObjectNode out = (ObjectNode) convert(review);
            ((ObjectNode) out.at("/response/convertedObjects/0/metadata")).put("name", "b");
            return out;
        };
        assertEquals("Internal error occurred: conversion webhook for example.com/v1, Kind=Widget returned invalid object: "
                        + "must have the same name: a != b",
                assertThrows(StatusException.class, () -> webhook("[\"v1\"]").convert(List.of(widget("example.com/v1", "a")),
                        "example.com/v2", false)).getMessage());
        server.stop(0);
        String refused = assertThrows(StatusException.class, () -> webhook("[\"v1\"]").convert(
                List.of(widget("example.com/v1", "a")), "example.com/v2", false)).getMessage();
        assertEquals(true, refused.startsWith("Internal error occurred: conversion webhook for example.com/v1, Kind=Widget failed: "
                + "Post \"http://127.0.0.1:"), refused);
    }
}
