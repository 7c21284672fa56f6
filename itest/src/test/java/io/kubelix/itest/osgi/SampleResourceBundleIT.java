package io.kubelix.itest.osgi;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.itest.osgi.ApiClient.Response;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

import javax.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

/**
 * A resource bundle installed at run time: its RESTStorageProvider adds
 * {@code widgets.sample.kubelix.io/v1} to the route table and to every discovery document, the
 * generic Store serves it with the bundle's strategy, and uninstalling the bundle takes all of it
 * away again. Objects stay in storage (core-runtime's), so a reinstalled bundle finds them.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class SampleResourceBundleIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String GROUP = "sample.kubelix.io";
    private static final String GROUP_VERSION = "/apis/" + GROUP + "/v1";
    private static final String WIDGETS = GROUP_VERSION + "/namespaces/default/widgets";

    @Inject
    private BundleContext context;

    private ApiClient api;

    @Configuration
    public Option[] configure() {
        return KubelixContainer.container(SampleResourceBundleIT.class);
    }

    @Before
    public void serverIsUp() {
        api = new ApiClient(context);
        api.awaitReady(TIMEOUT);
        // widgets live in namespace default, which resource-core creates after start-up
        ApiClient.await(TIMEOUT, "namespace default", () -> api.get("/api/v1/namespaces/default"), r -> r.status() == 200);
    }

    @Test
    public void widgetsComeAndGoWithTheirBundle() throws Exception {
        // 0. not served before the bundle is there
        assertEquals(404, api.get(GROUP_VERSION).status());
        assertFalse(groupsOf(api.get("/apis")).contains(GROUP));

        // 1. install and start: the group appears in discovery
        Bundle sample = context.installBundle(KubelixContainer.reactorBundleLocation(KubelixContainer.SAMPLE_RESOURCE));
        sample.start();
        Response resources = ApiClient.await(TIMEOUT, GROUP_VERSION + " served",
                () -> api.get(GROUP_VERSION), r -> r.status() == 200);
        assertDiscoveryListsWidgets(resources.json());
        Response apiGroup = api.get("/apis/" + GROUP);
        assertEquals(apiGroup.toString(), 200, apiGroup.status());
        assertEquals("APIGroup", apiGroup.json().path("kind").asText());
        assertEquals(GROUP, apiGroup.json().path("name").asText());
        Response groups = api.get("/apis");
        assertEquals(groups.toString(), 200, groups.status());
        assertTrue(groups.toString(), groupsOf(groups).contains(GROUP));
        JsonNode group = itemNamed(groups.json().path("groups"), GROUP, "name");
        assertEquals(GROUP + "/v1", group.path("preferredVersion").path("groupVersion").asText());
        Response aggregated = api.get("/apis", ApiClient.AGGREGATED_DISCOVERY);
        assertEquals(aggregated.toString(), 200, aggregated.status());
        assertTrue(aggregated.contentType(), aggregated.contentType().contains("as=APIGroupDiscoveryList"));
        assertEquals("APIGroupDiscoveryList", aggregated.json().path("kind").asText());
        JsonNode aggregatedGroup = itemNamed(aggregated.json().path("items"), GROUP, "metadata.name");
        JsonNode v1 = aggregatedGroup.path("versions").path(0);
        assertEquals("v1", v1.path("version").asText());
        JsonNode widgetsResource = v1.path("resources").path(0);
        assertEquals("widgets", widgetsResource.path("resource").asText());
        assertEquals("Widget", widgetsResource.path("responseKind").path("kind").asText());
        assertEquals("Namespaced", widgetsResource.path("scope").asText());

        // 2. the generic Store with the bundle's strategy
        Response created = api.post(WIDGETS, widget("w1", 3));
        assertEquals(created.toString(), 201, created.status());
        JsonNode meta = created.json().path("metadata");
        String uid = meta.path("uid").asText();
        assertFalse(created.toString(), uid.isEmpty());
        assertFalse(created.toString(), meta.path("resourceVersion").asText().isEmpty());
        assertFalse(created.toString(), meta.path("creationTimestamp").asText().isEmpty());
        assertEquals("default", meta.path("namespace").asText());

        Response got = api.get(WIDGETS + "/w1");
        assertEquals(got.toString(), 200, got.status());
        assertEquals(uid, got.json().path("metadata").path("uid").asText());
        assertEquals(GROUP + "/v1", got.json().path("apiVersion").asText());
        assertEquals("Widget", got.json().path("kind").asText());
        assertEquals(3, got.json().path("spec").path("size").asInt());

        Response list = api.get(WIDGETS);
        assertEquals(list.toString(), 200, list.status());
        assertEquals("WidgetList", list.json().path("kind").asText());
        assertEquals(List.of("w1"), names(list.json().path("items")));
        assertFalse(list.toString(), list.json().path("metadata").path("resourceVersion").asText().isEmpty());

        Response invalid = api.post(WIDGETS, widget("w2", -1));
        assertEquals(invalid.toString(), 422, invalid.status());
        assertEquals("Invalid", invalid.statusReason());
        assertEquals(invalid.toString(), "spec.size", invalid.json().path("details").path("causes").path(0).path("field").asText());
        assertEquals("Widget." + GROUP + " \"w2\" is invalid: spec.size: Invalid value: -1: must be greater than or equal to 0",
                invalid.json().path("message").asText());
        assertEquals(404, api.get(WIDGETS + "/w2").status());

        Response duplicate = api.post(WIDGETS, widget("w1", 4));
        assertEquals(duplicate.toString(), 409, duplicate.status());
        assertEquals("AlreadyExists", duplicate.statusReason());
        assertEquals("widgets." + GROUP + " \"w1\" already exists", duplicate.json().path("message").asText());

        Response deleted = api.delete(WIDGETS + "/w1");
        assertEquals(deleted.toString(), 200, deleted.status());
        Response gone = api.get(WIDGETS + "/w1");
        assertEquals(gone.toString(), 404, gone.status());
        assertEquals("NotFound", gone.statusReason());
        assertEquals("widgets." + GROUP + " \"w1\" not found", gone.json().path("message").asText());
        assertEquals(GROUP, gone.json().path("details").path("group").asText());
        assertEquals("widgets", gone.json().path("details").path("kind").asText());

        // 3. one widget stays while the bundle goes
        Response kept = api.post(WIDGETS, widget("kept", 7));
        assertEquals(kept.toString(), 201, kept.status());
        String keptUid = kept.json().path("metadata").path("uid").asText();

        // 4. uninstall: routes and discovery go
        sample.uninstall();
        Response notServed = ApiClient.await(TIMEOUT, WIDGETS + " no longer served",
                () -> api.get(WIDGETS), r -> r.status() == 404);
        assertEquals("NotFound", notServed.statusReason());
        assertEquals(404, api.get(GROUP_VERSION).status());
        assertEquals(404, api.get("/apis/" + GROUP).status());
        ApiClient.await(TIMEOUT, GROUP + " gone from /apis", () -> api.get("/apis"), r -> !groupsOf(r).contains(GROUP));
        ApiClient.await(TIMEOUT, GROUP + " gone from the aggregated discovery",
                () -> api.get("/apis", ApiClient.AGGREGATED_DISCOVERY),
                r -> r.status() == 200 && !names(r.json().path("items")).contains(GROUP));

        // 5. install again: the widget kept in storage is served again
        Bundle again = context.installBundle(KubelixContainer.reactorBundleLocation(KubelixContainer.SAMPLE_RESOURCE));
        again.start();
        Response back = ApiClient.await(TIMEOUT, "widget kept served again", () -> api.get(WIDGETS + "/kept"),
                r -> r.status() == 200);
        assertEquals(keptUid, back.json().path("metadata").path("uid").asText());
        assertEquals(7, back.json().path("spec").path("size").asInt());
        assertNotEquals(sample.getBundleId(), again.getBundleId());
        again.uninstall();
    }

    private static void assertDiscoveryListsWidgets(JsonNode list) {
        assertEquals(list.toString(), "APIResourceList", list.path("kind").asText());
        assertEquals(GROUP + "/v1", list.path("groupVersion").asText());
        JsonNode widgets = itemNamed(list.path("resources"), "widgets", "name");
        assertEquals("Widget", widgets.path("kind").asText());
        assertEquals("widget", widgets.path("singularName").asText());
        assertTrue(widgets.path("namespaced").asBoolean());
        assertEquals("[\"wg\"]", widgets.path("shortNames").toString());
        List<String> verbs = new ArrayList<>();
        widgets.path("verbs").forEach(v -> verbs.add(v.asText()));
        assertTrue(verbs.toString(), verbs.containsAll(List.of("create", "delete", "get", "list", "watch")));
    }

    private static String widget(String name, int size) {
        return "{\"apiVersion\":\"" + GROUP + "/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"" + name
                + "\"},\"spec\":{\"size\":" + size + "}}";
    }

    private static List<String> groupsOf(Response apis) {
        assertEquals(apis.toString(), 200, apis.status());
        List<String> names = new ArrayList<>();
        apis.json().path("groups").forEach(g -> names.add(g.path("name").asText()));
        return names;
    }

    /** metadata.name of every item (also for the aggregated discovery's groups). */
    private static List<String> names(JsonNode items) {
        List<String> names = new ArrayList<>();
        items.forEach(i -> names.add(i.path("metadata").path("name").asText()));
        return names;
    }

    private static JsonNode itemNamed(JsonNode items, String name, String field) {
        for (JsonNode i : items) {
            JsonNode n = i;
            for (String f : field.split("\\.")) {
                n = n.path(f);
            }
            if (name.equals(n.asText())) {
                return i;
            }
        }
        throw new AssertionError("no " + name + " in " + items);
    }
}
