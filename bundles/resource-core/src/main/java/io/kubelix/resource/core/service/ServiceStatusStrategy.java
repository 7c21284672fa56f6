package io.kubelix.resource.core.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;
import io.kubelix.resource.core.common.FieldChecks;
import io.kubelix.resource.core.common.Nodes;
import io.kubelix.support.net.IP;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's serviceStatusStrategy: {@code services/status} changes only the status, whose load
 * balancer ingress points must carry a valid IP and a DNS hostname (not an IP).
 */
final class ServiceStatusStrategy implements RESTUpdateStrategy {

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        StatusStrategies.keepOnlyStatus(obj, old);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode ingress = obj.path("status").path("loadBalancer").path("ingress");
        for (int i = 0; i < ingress.size(); i++) {
            String p = "status.loadBalancer.ingress[" + i + "]";
            String ip = Nodes.text(ingress.get(i), "ip");
            if (!ip.isEmpty() && IP.parseIPSloppy(ip) == null) {
                errs.add(FieldError.invalid(p + ".ip", ip, "must be a valid IP address"));
            }
            String hostname = Nodes.text(ingress.get(i), "hostname");
            if (!hostname.isEmpty()) {
                errs.addAll(FieldChecks.dns1123Subdomain(hostname, p + ".hostname"));
                if (IP.parseIPSloppy(hostname) != null) {
                    errs.add(FieldError.invalid(p + ".hostname", hostname, "must be a DNS name, not an IP address"));
                }
            }
        }
        return errs;
    }
}
