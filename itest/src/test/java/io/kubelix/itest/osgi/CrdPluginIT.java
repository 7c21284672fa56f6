package io.kubelix.itest.osgi;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.itest.osgi.ApiClient.Response;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.CoreOptions;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

import javax.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * Hot deploy of the apiextensions plugin: its CRDs' custom resources are served while it runs;
 * stopping it takes them out of the route table and discovery (404), and starting it again serves
 * them again with the objects stored meanwhile, as kube's crdHandler serves them from the CRDs.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class CrdPluginIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String APIEXTENSIONS = "apiextensions";
    private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    private static final String WIDGETS = "/apis/stable.example.com/v1/namespaces/default/widgets";

    @Inject
    private BundleContext context;

    private ApiClient api;

    @Configuration
    public Option[] configure() {
        List<Option> options = new ArrayList<>(Arrays.asList(KubelixContainer.container(CrdPluginIT.class)));
        options.add(CoreOptions.bundle(KubelixContainer.reactorBundleLocation(APIEXTENSIONS)).startLevel(4));
        return options.toArray(new Option[0]);
    }

    @Before
    public void serverIsUp() {
        api = new ApiClient(context);
        api.awaitReady(TIMEOUT);
        ApiClient.await(TIMEOUT, "namespace default", () -> api.get("/api/v1/namespaces/default"), r -> r.status() == 200);
        ApiClient.await(TIMEOUT, "CRDs served", () -> api.get(CRDS), r -> r.status() == 200);
    }

    @Test
    public void customResourcesLeaveWithThePluginAndComeBackWithTheirObjects() throws Exception {
        Response crd = api.post(CRDS, "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\","
                + "\"metadata\":{\"name\":\"widgets.stable.example.com\"},\"spec\":{\"group\":\"stable.example.com\","
                + "\"scope\":\"Namespaced\",\"names\":{\"plural\":\"widgets\",\"kind\":\"Widget\"},\"versions\":[{\"name\":\"v1\","
                + "\"served\":true,\"storage\":true,\"schema\":{\"openAPIV3Schema\":{\"type\":\"object\",\"properties\":{"
                + "\"spec\":{\"type\":\"object\",\"properties\":{\"size\":{\"type\":\"integer\"}}}}}}}]}}");
        assertEquals(crd.toString(), 201, crd.status());
        ApiClient.await(TIMEOUT, "the CRD established", () -> api.get(CRDS + "/widgets.stable.example.com"),
                r -> r.status() == 200 && established(r.json()));

        Response created = ApiClient.await(TIMEOUT, "a widget created", () -> api.post(WIDGETS,
                "{\"apiVersion\":\"stable.example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w1\"},"
                        + "\"spec\":{\"size\":3}}"), r -> r.status() == 201);
        String uid = created.json().path("metadata").path("uid").asText();

        Bundle plugin = Bundles.kubelix(context, APIEXTENSIONS);
        plugin.stop();
        assertEquals(404, api.get(WIDGETS + "/w1").status());
        assertEquals(404, api.get(CRDS).status());
        Response groups = api.get("/apis");
        assertFalse(groups.toString(), groups.body().contains("stable.example.com"));

        plugin.start();
        Response back = ApiClient.await(TIMEOUT, "the widget served again", () -> api.get(WIDGETS + "/w1"),
                r -> r.status() == 200);
        assertEquals(uid, back.json().path("metadata").path("uid").asText());
        assertEquals(3, back.json().path("spec").path("size").asInt());
        assertTrue(api.get("/apis").body().contains("stable.example.com"));
    }

    private static boolean established(JsonNode crd) {
        for (JsonNode c : crd.path("status").path("conditions")) {
            if (c.path("type").asText().equals("Established")) {
                return c.path("status").asText().equals("True");
            }
        }
        return false;
    }

    /** A failed test must not leave the plugin stopped. */
    @After
    public void pluginActive() throws Exception {
        Bundle plugin = Bundles.kubelix(context, APIEXTENSIONS);
        if (plugin.getState() != Bundle.ACTIVE) {
            plugin.start();
        }
    }
}
