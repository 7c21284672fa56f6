package io.kubelix.runtime.console;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.runtime.endpoints.responsewriters.Responses;
import io.kubelix.runtime.metrics.ServerMetrics;
import io.kubelix.runtime.plugins.KubelixEndpoint;
import io.kubelix.runtime.plugins.PluginInventory;
import io.kubelix.runtime.plugins.PluginReportJson;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * {@code GET /kubelix/console/state}: what the console page shows, asked every few seconds. The
 * plugin status of {@code /kubelix/plugins} (each plugin, its state, what it contributes, the
 * conflicts with their shadowed providers), and the request counters: requests answered since
 * the start and watches open now, as {@code apiserver_request_total} and
 * {@code apiserver_longrunning_requests} count them. Authenticated and authorized like every
 * non-resource request (verb {@code get} on this path).
 * <pre>
 * {"plugins": [...], "conflicts": [...], "requests": {"total"}, "watches": {"open"}}
 * </pre>
 */
@Component(service = KubelixEndpoint.class)
public final class ConsoleStateEndpoint implements KubelixEndpoint {
    static final String PATH = ConsolePage.PATH + "/state";

    private final PluginInventory inventory;
    private final ServerMetrics metrics;

    @Activate
    public ConsoleStateEndpoint(@Reference PluginInventory inventory, @Reference ServerMetrics metrics) {
        this.inventory = inventory;
        this.metrics = metrics;
    }

    @Override
    public boolean serve(Request request, Response response, Callback callback, String path) {
        if (!KubelixEndpoint.isReadOf(request, path, PATH)) {
            return false;
        }
        ObjectNode doc = PluginReportJson.toJson(inventory.report());
        doc.putObject("requests").put("total", metrics.requestsServed());
        doc.putObject("watches").put("open", metrics.watchesOpen());
        Responses.writeObject(request, response, callback, 200, doc);
        return true;
    }
}
