package io.kubelix.itest.osgi;

import io.kubelix.itest.osgi.ApiClient.Response;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerMethod;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

import javax.inject.Inject;
import java.time.Duration;

import static org.junit.Assert.assertEquals;

/**
 * The authenticator is a plugin: without the authn-token bundle no bearer token is accepted (401,
 * a Status with reason Unauthorized) while the public health endpoints still answer, and with the
 * bundle back the same token works again. Each method gets its own container, so each starts with
 * the authenticator in place.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerMethod.class)
public class AuthnTokenBundleIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String NAMESPACES = "/api/v1/namespaces";

    @Inject
    private BundleContext context;

    private ApiClient api;

    @Configuration
    public Option[] configure() {
        return KubelixContainer.container(AuthnTokenBundleIT.class);
    }

    @Before
    public void authenticatedRequestsWork() {
        api = new ApiClient(context);
        api.awaitReady(TIMEOUT);
        ApiClient.await(TIMEOUT, "admin token accepted", () -> api.get(NAMESPACES), r -> r.status() == 200);
    }

    @Test
    public void stoppingTheAuthenticatorRefusesTokensUntilItStartsAgain() throws Exception {
        Bundle authn = Bundles.kubelix(context, KubelixContainer.PLUGIN_AUTHN_TOKEN);

        authn.stop();
        assertRefusedButHealthy();

        authn.start();
        Response ok = ApiClient.await(TIMEOUT, "admin token accepted again", () -> api.get(NAMESPACES), r -> r.status() == 200);
        assertEquals("NamespaceList", ok.json().path("kind").asText());
    }

    @Test
    public void uninstallingTheAuthenticatorRefusesTokensUntilItIsInstalledAgain() throws Exception {
        Bundle authn = Bundles.kubelix(context, KubelixContainer.PLUGIN_AUTHN_TOKEN);
        String location = authn.getLocation();

        authn.uninstall();
        assertRefusedButHealthy();

        Bundle again = context.installBundle(location);
        again.start();
        Response ok = ApiClient.await(TIMEOUT, "admin token accepted again", () -> api.get(NAMESPACES), r -> r.status() == 200);
        assertEquals("NamespaceList", ok.json().path("kind").asText());
    }

    private void assertRefusedButHealthy() {
        Response refused = ApiClient.await(TIMEOUT, "admin token refused", () -> api.get(NAMESPACES), r -> r.status() == 401);
        assertEquals("Unauthorized", refused.statusReason());
        assertEquals(401, refused.json().path("code").asInt());
        assertEquals("Failure", refused.json().path("status").asText());

        Response healthz = api.getWithoutCredentials("/healthz");
        assertEquals(healthz.toString(), 200, healthz.status());
        assertEquals("ok", healthz.body().trim());
        Response livez = api.getWithoutCredentials("/livez");
        assertEquals(livez.toString(), 200, livez.status());

        Response anonymous = api.getWithoutCredentials(NAMESPACES);
        assertEquals(anonymous.toString(), 401, anonymous.status());
        assertEquals("Unauthorized", anonymous.statusReason());
    }
}
