package io.kubelix.itest.osgi;

import io.kubelix.itest.osgi.ApiClient.Response;
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
import java.util.Arrays;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Kubelix in a framework assembled only from the OSGi repository the build indexes and the bundles
 * its {@code kubelix.bndrun} resolves to ({@link ResolvedRun}): no distribution, no FileInstall, no
 * hand-written bundle list. It becomes ready and serves the core group and a resource plugin's.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class OsgiRepositoryIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @Inject
    private BundleContext context;

    @Configuration
    public Option[] configure() {
        return ResolvedRun.container(OsgiRepositoryIT.class);
    }

    @Test
    public void theResolvedBundlesAloneServeKubernetesRequests() {
        ApiClient api = new ApiClient(context);
        api.awaitReady(TIMEOUT);

        Response ns = ApiClient.await(TIMEOUT, "namespace default", () -> api.get("/api/v1/namespaces/default"),
                r -> r.status() == 200);
        assertEquals("Namespace", ns.json().path("kind").asText());
        Response deployments = ApiClient.await(TIMEOUT, "deployments listed",
                () -> api.get("/apis/apps/v1/namespaces/default/deployments"), r -> r.status() == 200);
        assertEquals("DeploymentList", deployments.json().path("kind").asText());

        List<String> notActive = Arrays.stream(context.getBundles())
                .filter(b -> b.getSymbolicName() != null && b.getSymbolicName().startsWith("io.kubelix."))
                .filter(b -> b.getHeaders().get("Fragment-Host") == null && b.getState() != Bundle.ACTIVE)
                .map(Bundle::getSymbolicName).toList();
        assertTrue("Kubelix bundles not active: " + notActive, notActive.isEmpty());
    }
}
