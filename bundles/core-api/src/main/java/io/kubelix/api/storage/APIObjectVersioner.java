package io.kubelix.api.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;

/** The Versioner of every backend with decimal revisions in {@code metadata.resourceVersion}. */
public final class APIObjectVersioner implements Versioner {
    public static final APIObjectVersioner INSTANCE = new APIObjectVersioner();

    private APIObjectVersioner() {
    }

    @Override
    public void updateObject(ObjectNode obj, long revision) {
        JsonNode m = obj.get("metadata");
        ObjectNode meta = m instanceof ObjectNode o ? o : obj.putObject("metadata");
        if (revision == 0) {
            meta.remove("resourceVersion");
        } else {
            meta.put("resourceVersion", Long.toString(revision));
        }
    }

    @Override
    public long objectResourceVersion(ObjectNode obj) {
        JsonNode rv = obj.path("metadata").path("resourceVersion");
        return rv.isMissingNode() || rv.isNull() ? 0 : parseResourceVersion(rv.asText());
    }

    @Override
    public long parseResourceVersion(String resourceVersion) {
        if (resourceVersion == null || resourceVersion.isEmpty()) {
            return 0;
        }
        try {
            long v = Long.parseLong(resourceVersion);
            if (v < 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw StatusException.badRequest("invalid resource version \"" + resourceVersion + "\"");
        }
    }
}
