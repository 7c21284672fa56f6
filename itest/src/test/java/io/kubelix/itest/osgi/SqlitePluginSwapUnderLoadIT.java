package io.kubelix.itest.osgi;

import io.kubelix.itest.osgi.ApiClient.Response;
import io.kubelix.itest.osgi.SwapUnderLoad.Load;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.BundleContext;

import javax.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.kubelix.itest.osgi.SwapUnderLoad.TIMEOUT;
import static io.kubelix.itest.osgi.SwapUnderLoad.assertWatchesGotEveryAddOnceInOrder;
import static io.kubelix.itest.osgi.SwapUnderLoad.openWatches;
import static io.kubelix.itest.osgi.SwapUnderLoad.swapThreeTimes;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The storage-sql plugin, on SQLite, updated while clients work, as FileInstall updates its jar (an
 * update, then a refresh): each new version reopens the same database, so no request fails, no
 * object is lost, and the watches go on with every event once and in order.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class SqlitePluginSwapUnderLoadIT {
    private static final String PLUGIN_STORAGE_SQL = "storage-sql";
    private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

    @Inject
    private BundleContext context;

    private ApiClient api;
    private final List<ApiClient.Watch> watches = new ArrayList<>();

    @Configuration
    public Option[] configure() {
        return KubelixContainer.container(SqlitePluginSwapUnderLoadIT.class, "sqlite");
    }

    @Before
    public void serverIsUp() throws Exception {
        if (Bundles.find(context, PLUGIN_STORAGE_SQL) == null) {
            context.installBundle(KubelixContainer.reactorBundleLocation(PLUGIN_STORAGE_SQL)).start();
        }
        api = new ApiClient(context);
        api.awaitReady(TIMEOUT);
        ApiClient.await(TIMEOUT, "namespace default", () -> api.get("/api/v1/namespaces/default"), r -> r.status() == 200);
    }

    @After
    public void closeWatches() {
        watches.forEach(ApiClient.Watch::close);
    }

    @Test
    public void storageSqlUpdatesUnderLoadFailNoRequestLoseNoObjectAndEndNoWatch() throws Exception {
        Map<String, List<ApiClient.Watch>> watched = Map.of(CONFIGMAPS, openWatches(api, CONFIGMAPS, watches));
        Load load = new Load(i -> List.of(
                () -> api.post(CONFIGMAPS, configMap("sql-" + i)),
                () -> api.get(CONFIGMAPS + "/sql-" + i),
                () -> api.get(CONFIGMAPS + "?limit=20")), created -> CONFIGMAPS);
        swapThreeTimes(context, load, Bundles.kubelix(context, PLUGIN_STORAGE_SQL));

        Set<String> created = load.created(CONFIGMAPS);
        assertTrue("a swap with too little load to prove anything", created.size() > 50);
        for (String name : created) {
            Response kept = api.get(CONFIGMAPS + "/" + name);
            assertEquals(kept.toString(), 200, kept.status());
        }
        assertWatchesGotEveryAddOnceInOrder(api, watched, load, Map.of(CONFIGMAPS, configMap("sql-end")));
    }

    private static String configMap(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"},\"data\":{\"k\":\"v\"}}";
    }
}
