package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.validation.NameValidators;
import io.kubelix.resource.core.common.Nodes;
import io.kubelix.support.net.IP;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The update strategy of {@code pods/status} (kube's podStatusStrategy): only the status changes,
 * and the QoS class set at creation stays; the nominated node must be a valid node name and the pod
 * IPs valid and distinct.
 */
public final class PodStatusStrategy implements RESTUpdateStrategy {

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        StatusStrategies.keepOnlyStatus(obj, old);
        JsonNode qos = old.path("status").get("qosClass");
        if (qos != null && obj.get("status") instanceof ObjectNode status) {
            status.set("qosClass", qos);
        }
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode status = obj.path("status");
        String nominated = Nodes.text(status, "nominatedNodeName");
        if (!nominated.isEmpty()) {
            NameValidators.isDNS1123Subdomain(nominated)
                    .forEach(m -> errs.add(FieldError.invalid("status.nominatedNodeName", nominated, m)));
        }
        Set<String> seen = new HashSet<>();
        int i = 0;
        for (JsonNode ip : status.path("podIPs")) {
            String path = "status.podIPs[" + i++ + "]";
            String value = Nodes.text(ip, "ip");
            if (IP.parseIPSloppy(value) == null) {
                errs.add(FieldError.invalid(path, value, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"));
            } else if (!seen.add(value)) {
                errs.add(FieldError.duplicate(path, value));
            }
        }
        return errs;
    }
}
