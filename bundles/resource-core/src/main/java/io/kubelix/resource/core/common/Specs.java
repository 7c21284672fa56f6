package io.kubelix.resource.core.common;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** The {@code spec} of a core/v1 object with one, as the strategies that default it need it. */
public final class Specs {

    private Specs() {
    }

    /**
     * The object's spec, created when missing (Go's zero value). The server's typed decoding has
     * already refused a spec of another JSON type with kube's 400.
     */
    public static ObjectNode spec(ObjectNode obj) {
        return obj.get("spec") instanceof ObjectNode s ? s : obj.putObject("spec");
    }
}
