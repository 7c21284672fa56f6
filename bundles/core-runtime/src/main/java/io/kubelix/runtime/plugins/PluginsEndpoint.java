package io.kubelix.runtime.plugins;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.runtime.endpoints.Responses;
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
        if (!path.equals(PATH) && !path.equals(PATH + "/")) {
            return false;
        }
        String method = request.getMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            throw new StatusException(StatusReason.METHOD_NOT_ALLOWED,
                    "the server does not allow this method on the requested resource");
        }
        Responses.writeObject(request, response, callback, 200, PluginReportJson.toJson(inventory.report()));
        return true;
    }
}
