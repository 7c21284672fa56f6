package io.kubelix.runtime.plugins;

import io.kubelix.runtime.endpoints.responsewriters.Responses;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * {@code GET /kubelix/plugins}: the plugin status ({@link PluginReportJson} describes the
 * document). Read-only; authenticated and authorized like every non-resource request (the
 * authorizer sees verb {@code get} on path {@code /kubelix/plugins}).
 */
@Component(service = KubelixEndpoint.class)
public final class PluginsEndpoint implements KubelixEndpoint {
    static final String PATH = ROOT + "/plugins";

    private final PluginInventory inventory;

    @Activate
    public PluginsEndpoint(@Reference PluginInventory inventory) {
        this.inventory = inventory;
    }

    @Override
    public boolean serve(Request request, Response response, Callback callback, String path) {
        if (!KubelixEndpoint.isReadOf(request, path, PATH)) {
            return false;
        }
        Responses.writeObject(request, response, callback, 200, PluginReportJson.toJson(inventory.report()));
        return true;
    }
}
