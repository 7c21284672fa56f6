package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.NamedCreater;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.runtime.endpoints.responsewriters.Responses;
import io.kubelix.runtime.registry.AdmissionChain;
import io.kubelix.runtime.registry.AdmissionOptions;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;

/**
 * The create handler of a {@link NamedCreater} subresource (kube's createHandler with a
 * NamedCreater, such as {@code POST pods/<name>/binding}): the body is decoded as the
 * subresource's kind, admitted (mutating, then validating) as a CREATE of the subresource, and
 * handed to the storage with the name from the URL. A returned {@code Status} is answered 201 with
 * its code set, as kube-apiserver answers a binding or an eviction.
 */
final class NamedCreateHandler {
    private static final int CREATED = 201;

    private NamedCreateHandler() {
    }

    static void create(RequestScope s, AdmissionChain admission, Response response, Callback callback) throws IOException {
        NamedCreater creater = (NamedCreater) s.storage;
        ObjectNode body = s.bodyObject(s.decodeValidatedBody());
        io.kubelix.runtime.audit.AuditContext.logRequestObject(s.request, body);
        boolean dryRun = s.dryRun();
        CreateOptions options = new CreateOptions(dryRun, ResourceHandlers.fieldManager(s), s.fieldValidationParam());
        AdmissionAttributes attributes = new AdmissionAttributes(Operation.CREATE, s.kind(),
                GroupVersionResource.of(s.groupVersion, s.info.resource()), s.info.subresource(), s.ctx.namespace(),
                s.info.name(), body, null, dryRun, s.ctx, AdmissionOptions.of(options), null);
        admission.admit(attributes);
        admission.validate(attributes);
        ObjectNode result = creater.create(s.ctx, s.info.name(), body, options);
        Responses.addWarnings(response, s.ctx.warnings());
        if ("Status".equals(result.path("kind").asText()) || !result.has("kind")) {
            if (result.path("code").asInt(0) == 0) {
                result.put("code", CREATED);
            }
            ResourceHandlers.writeUnconverted(s, response, callback, CREATED, result);
            return;
        }
        ResourceHandlers.writeUnconverted(s, response, callback, CREATED, ResourceHandlers.typed(s, result));
    }
}
