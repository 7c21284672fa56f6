package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.GroupVersionKindProvider;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.runtime.codec.Codecs;
import io.kubelix.runtime.codec.MediaType;
import io.kubelix.runtime.codec.protobuf.ProtobufCodec;
import io.kubelix.runtime.endpoints.responsewriters.Responses;
import io.kubelix.runtime.fieldmanager.FieldManager;
import io.kubelix.runtime.request.RequestInfoFactory;
import io.kubelix.runtime.storage.SelectionPredicates;
import io.kubelix.runtime.validation.FieldValidation;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Fields;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * handlers.RequestScope: what every handler of one resource request needs — the group version
 * served, the storage, the RequestInfo and context — plus the request's body and query, decoded
 * with kube-apiserver's errors.
 */
final class RequestScope {
    final GroupVersion groupVersion;
    final RESTStorage storage;
    final RequestInfo info;
    final HttpRequestContext ctx;
    final Request request;
    final Fields query;
    private final ProtobufCodec protobuf;
    private byte[] cachedBody;
    /** Whether the resource has a status subresource, whose fields its main endpoint resets. */
    boolean hasStatusSubresource;

    RequestScope(GroupVersion groupVersion, RESTStorage storage, RequestInfo info, HttpRequestContext ctx, Request request,
                 ProtobufCodec protobuf) {
        this.protobuf = protobuf;
        this.groupVersion = groupVersion;
        this.storage = storage;
        this.info = info;
        this.ctx = ctx;
        this.request = request;
        this.query = Request.extractQueryParameters(request);
    }

    GroupResource groupResource() {
        return new GroupResource(groupVersion.group(), info.resource());
    }

    /**
     * The apiVersion and kind of the objects served: the endpoint's group version, or the one a
     * {@link GroupVersionKindProvider} names (a {@code scale} subresource serves autoscaling/v1).
     */
    GroupVersionKind kind() {
        return storage instanceof GroupVersionKindProvider p ? p.groupVersionKind(groupVersion)
                : GroupVersionKind.of(groupVersion, storage.kind());
    }

    /**
     * The field manager of this endpoint, or null where fields are not managed (subresources other
     * than {@code status}, such as {@code scale}, which write another kind).
     */
    FieldManager fieldManager() {
        String sub = info.subresource();
        if (!sub.isEmpty() && !sub.equals("status") || storage instanceof GroupVersionKindProvider) {
            return null;
        }
        return new FieldManager(storage.schema(), kind().groupVersion().apiVersion(), sub,
                FieldManager.resetFields(storage.schema(), sub, hasStatusSubresource));
    }

    /** The manager of a write: the {@code fieldManager} parameter, else the User-Agent's product. */
    String manager() {
        return FieldManager.managerOrUserAgent(param("fieldManager"), request.getHeaders().get(HttpHeader.USER_AGENT));
    }

    String param(String name) {
        String v = query.getValue(name);
        return v == null ? "" : v;
    }

    /**
     * A boolean query parameter, as kube reads every one ({@link RequestInfoFactory#isTrue}): null
     * when absent (an unset {@code *bool}), else false only for "0" and "false" in any case.
     */
    Boolean boolParam(String name) {
        String v = query.getValue(name);
        return v == null ? null : RequestInfoFactory.isTrue(v);
    }

    /**
     * The {@code dryRun} parameter: {@code All} or nothing, as kube-apiserver accepts; anything else
     * is ValidateDryRun's 422 on the verb's options ({@code CreateOptions.meta.k8s.io "" is invalid:
     * dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"}).
     */
    boolean dryRun() {
        List<String> values = query.getValues("dryRun");
        if (values == null) {
            return false;
        }
        if (!values.stream().allMatch("All"::equals)) {
            String options = switch (info.verb()) {
                case "create" -> "CreateOptions";
                case "update" -> "UpdateOptions";
                case "patch" -> "PatchOptions";
                default -> "DeleteOptions";
            };
            throw StatusException.invalid(options, "meta.k8s.io", "",
                    List.of(FieldError.notSupported("dryRun", new GoStrings(values), List.of("All"))));
        }
        return !values.isEmpty();
    }

    /** A []string as Go's %#v prints it in a field error: {@code []string{"a", "b"}}. */
    private record GoStrings(List<String> values) {
        @Override
        public String toString() {
            return "[]string{" + String.join(", ", values.stream().map(v -> "\"" + v + "\"").toList()) + "}";
        }
    }

    /** The request body, at most {@link Responses#MAX_REQUEST_BODY_BYTES} (413 beyond). */
    byte[] body() throws IOException {
        if (cachedBody != null) {
            return cachedBody;
        }
        long declared = request.getLength();
        if (declared > Responses.MAX_REQUEST_BODY_BYTES) {
            throw tooLarge();
        }
        try (InputStream in = Content.Source.asInputStream(request)) {
            byte[] bytes = in.readNBytes(Responses.MAX_REQUEST_BODY_BYTES + 1);
            if (bytes.length > Responses.MAX_REQUEST_BODY_BYTES) {
                throw tooLarge();
            }
            cachedBody = bytes;
            request.setAttribute(Responses.BODY_READ, Boolean.TRUE);
            return bytes;
        }
    }

    private static StatusException tooLarge() {
        return StatusException.requestEntityTooLarge("the request body is larger than the limit of "
                + Responses.MAX_REQUEST_BODY_BYTES + " bytes");
    }

    /** The body as an object of this resource's kind: apiVersion and kind default to the endpoint's, and must match it. */
    ObjectNode bodyObject() throws IOException {
        return bodyObject(decodeBody());
    }

    /** {@code obj}, decoded from the body, checked and defaulted as {@link #bodyObject()} does. */
    ObjectNode bodyObject(ObjectNode obj) {
        JsonNode apiVersion = obj.get("apiVersion");
        JsonNode kind = obj.get("kind");
        String expectedVersion = kind().groupVersion().apiVersion();
        String expectedKind = kind().kind();
        if (apiVersion == null || apiVersion.asText().isEmpty()) {
            obj.put("apiVersion", expectedVersion);
        } else if (!apiVersion.asText().equals(expectedVersion)) {
            throw StatusException.badRequest("the API version in the data (" + apiVersion.asText()
                    + ") does not match the expected API version (" + expectedVersion + ")");
        }
        if (kind == null || kind.asText().isEmpty()) {
            obj.put("kind", expectedKind);
        } else if (!kind.asText().equals(expectedKind)) {
            throw StatusException.badRequest("the kind in the data (" + kind.asText()
                    + ") does not match the expected kind (" + expectedKind + ")");
        }
        return obj;
    }

    /** The body decoded as {@link #decodeBody()}, or an empty object when there is none. */
    ObjectNode decodeBodyOrEmpty() throws IOException {
        byte[] bytes = body();
        if (bytes.length == 0) {
            return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        }
        return decodeBody();
    }

    /** The Content-Type's media type (without parameters), or empty. */
    String contentType() {
        String ct = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        return ct == null ? "" : MediaType.parse(ct).type();
    }

    /** The body as an object, by its Content-Type: JSON (the default), YAML or Kubernetes protobuf. */
    ObjectNode decodeBody() throws IOException {
        String ct = contentType();
        if (ct.isEmpty() || ct.equals(MediaType.JSON)) {
            return Codecs.decodeObject(body(), false);
        }
        if (MediaType.parse(ct).isYaml()) {
            return Codecs.decodeObject(body(), true);
        }
        if (ct.equals(ProtobufCodec.MEDIA_TYPE)) {
            return protobuf.decode(body());
        }
        throw StatusException.unsupportedMediaType(ct);
    }

    /**
     * The create or update body as an object: JSON and YAML field-validated per the
     * {@code fieldValidation} parameter ({@link FieldValidation#decodeObject}), other media types
     * as {@link #decodeBody()} decodes them.
     */
    ObjectNode decodeValidatedBody() throws IOException {
        FieldValidation.Directive directive = fieldValidation();
        String ct = contentType();
        boolean json = ct.isEmpty() || ct.equals(MediaType.JSON);
        boolean yaml = !json && MediaType.parse(ct).isYaml();
        if (!json && !yaml) {
            return decodeBody();
        }
        return FieldValidation.decodeObject(body(), yaml, validationTarget(), directive, ctx);
    }

    /** A JSON, merge or strategic merge patch body, field-validated ({@link FieldValidation#decodePatch}). */
    FieldValidation.Patch decodeValidatedPatch(boolean jsonPatch) throws IOException {
        FieldValidation.Directive directive = fieldValidation();
        return FieldValidation.decodePatch(body(), jsonPatch, validationTarget(), directive);
    }

    /** A server-side apply configuration, field-validated ({@link FieldValidation#decodeApply}). */
    FieldValidation.Patch decodeValidatedApply() throws IOException {
        FieldValidation.Directive directive = fieldValidation();
        return FieldValidation.decodeApply(body(), validationTarget(), directive);
    }

    /** The {@code fieldValidation} parameter as given, or null: what admission sees in the write's options. */
    String fieldValidationParam() {
        String v = param("fieldValidation");
        return v == null || v.isEmpty() ? null : v;
    }

    /** The {@code fieldValidation} parameter's directive (422 on the verb's options when unknown). */
    private FieldValidation.Directive fieldValidation() {
        return FieldValidation.directive(param("fieldValidation"), info.verb());
    }

    private FieldValidation.Target validationTarget() {
        return new FieldValidation.Target(storage.schema(), kind(), storage.kind(), groupVersion.version());
    }

    /** The list/watch query as storage ListOptions (metav1.ListOptions). */
    ListOptions listOptions(boolean watch) {
        String rv = param("resourceVersion");
        String matchParam = param("resourceVersionMatch");
        // ValidateListOptions: a 422 on ListOptions. WatchList (sendInitialEvents) may ask NotOlderThan the
        // current state, with no resourceVersion.
        ResourceVersionMatch match = switch (matchParam) {
            case "" -> ResourceVersionMatch.UNSET;
            case "NotOlderThan" -> ResourceVersionMatch.NOT_OLDER_THAN;
            case "Exact" -> ResourceVersionMatch.EXACT;
            default -> throw listOptionsInvalid(FieldError.notSupported("resourceVersionMatch", matchParam,
                    List.of("NotOlderThan", "Exact")));
        };
        if (match != ResourceVersionMatch.UNSET && rv.isEmpty() && query.getValue("sendInitialEvents") == null) {
            throw listOptionsInvalid(FieldError.forbidden("resourceVersionMatch",
                    "resourceVersionMatch is forbidden unless resourceVersion is provided"));
        }
        long limit = 0;
        String limitParam = param("limit");
        if (!limitParam.isEmpty()) {
            try {
                limit = Long.parseLong(limitParam);
            } catch (NumberFormatException e) {
                throw StatusException.badRequest("limit: Invalid value: \"" + limitParam + "\": must be an integer");
            }
        }
        String cont = param("continue");
        if (!cont.isEmpty() && !rv.isEmpty()) {
            throw StatusException.badRequest("specifying resource version is not allowed when using continue");
        }
        var predicate = SelectionPredicates.of(param("labelSelector"), fieldSelector(watch),
                storage.selectableFields());
        return new ListOptions(rv, match, predicate, true, watch ? 0 : Math.max(0, limit), cont.isEmpty() ? null : cont,
                watch && RequestInfoFactory.isTrue(query.getValue("allowWatchBookmarks")));
    }

    /**
     * The field selector; a watch of one object (the legacy {@code /watch/.../<name>} path) selects
     * its name, as kube's ListResource does, and refuses a selector naming another.
     */
    private String fieldSelector(boolean watch) {
        String selector = param("fieldSelector");
        String name = info.name();
        if (!watch || name.isEmpty()) {
            return selector;
        }
        if (selector.isEmpty()) {
            return "metadata.name=" + name;
        }
        for (String term : selector.split(",")) {
            String t = term.trim();
            if (t.equals("metadata.name=" + name) || t.equals("metadata.name==" + name)) {
                return selector;
            }
        }
        throw StatusException.badRequest("fieldSelector metadata.name doesn't match requested name");
    }

    private static StatusException listOptionsInvalid(FieldError error) {
        return StatusException.invalid("ListOptions", "meta.k8s.io", "", List.of(error));
    }
}
