package io.kubelix.resource.core.serviceaccount;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.authn.TokenIssuer;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.Getter;
import io.kubelix.api.registry.GroupVersionKindProvider;
import io.kubelix.api.registry.NamedCreater;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.resource.core.common.Nodes;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code serviceaccounts/token} (kube's TokenREST): a POST of an {@code authentication.k8s.io/v1
 * TokenRequest} for an existing service account answers the request with {@code status.token}, a
 * token the issuer signed for that account, its audiences ({@code spec.audiences}, else the
 * issuer's), its lifetime ({@code spec.expirationSeconds}, 3600 by default, shortened to the
 * issuer's maximum with a warning) and the pod, secret or node of {@code spec.boundObjectRef}.
 *
 * <p>kube-apiserver serves this subresource only when it has a token issuer. The route exists
 * while resource-core does; while no {@link TokenIssuer} is registered it answers as a path the
 * server does not serve (404 NotFound).
 */
public final class ServiceAccountTokenREST implements NamedCreater, GroupVersionKindProvider {
    static final GroupVersionKind TOKEN_REQUEST = new GroupVersionKind("authentication.k8s.io", "v1", "TokenRequest");
    static final long DEFAULT_EXPIRATION_SECONDS = 3600;

    private final Supplier<TokenIssuer> issuer;
    private final Getter serviceAccounts;
    private final Getter pods;
    private final Getter secrets;
    private final Getter nodes;

    public ServiceAccountTokenREST(Supplier<TokenIssuer> issuer, Getter serviceAccounts, Getter pods, Getter secrets,
                            Getter nodes) {
        this.issuer = issuer;
        this.serviceAccounts = serviceAccounts;
        this.pods = pods;
        this.secrets = secrets;
        this.nodes = nodes;
    }

    @Override
    public ObjectNode create(RequestContext ctx, String name, ObjectNode request, CreateOptions options) {
        TokenIssuer tokens = issuer.get();
        if (tokens == null) {
            throw new StatusException(StatusReason.NOT_FOUND, "the server could not find the requested resource");
        }
        TokenRequestValidation.validateNames(request, name, ctx.namespace());
        ObjectNode account = serviceAccounts.get(ctx, name, "");
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);

        ObjectNode out = request.deepCopy();
        out.put("apiVersion", TOKEN_REQUEST.group() + "/" + TOKEN_REQUEST.version());
        out.put("kind", TOKEN_REQUEST.kind());
        ObjectNode meta = out.get("metadata") instanceof ObjectNode m ? m : out.putObject("metadata");
        meta.put("name", name);
        meta.put("namespace", ctx.namespace());
        meta.put("creationTimestamp", now.toString());
        ObjectNode spec = out.get("spec") instanceof ObjectNode s ? s : out.putObject("spec");
        if (!spec.hasNonNull("expirationSeconds")) {
            spec.put("expirationSeconds", DEFAULT_EXPIRATION_SECONDS);
        }
        if (!(spec.get("audiences") instanceof ArrayNode a) || a.isEmpty()) {
            ArrayNode audiences = spec.putArray("audiences");
            tokens.defaultAudiences().forEach(audiences::add);
        }
        out.remove("status");
        TokenRequestValidation.validate(out);

        TokenIssuer.BoundObject bound = boundObject(ctx, name, spec.path("boundObjectRef"));
        List<String> audiences = new ArrayList<>();
        spec.path("audiences").forEach(a -> audiences.add(a.asText()));
        ObjectNode accountMeta = (ObjectNode) account.path("metadata");
        long requested = spec.path("expirationSeconds").asLong();
        TokenIssuer.IssuedToken token = tokens.issue(new TokenIssuer.ServiceAccount(ctx.namespace(), name,
                Nodes.text(accountMeta, "uid")), audiences, requested, bound);
        if (token.expirationSeconds() < requested) {
            ctx.addWarning("requested expiration of " + requested + " seconds shortened to "
                    + token.expirationSeconds() + " seconds");
            spec.put("expirationSeconds", token.expirationSeconds());
        }
        ObjectNode status = out.putObject("status");
        status.put("token", token.token());
        status.put("expirationTimestamp", now.plusSeconds(token.expirationSeconds()).toString());
        return out;
    }

    /** The object {@code spec.boundObjectRef} names, read to check it and take its uid; null when unset. */
    private TokenIssuer.BoundObject boundObject(RequestContext ctx, String account, JsonNode ref) {
        if (!(ref instanceof ObjectNode) || ref.isEmpty()) {
            return null;
        }
        String apiVersion = Nodes.text(ref, "apiVersion");
        String kind = Nodes.text(ref, "kind");
        String objectName = Nodes.text(ref, "name");
        String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        ObjectNode object;
        if (group.isEmpty() && kind.equals("Pod")) {
            object = pods.get(ctx, objectName, "");
            String podAccount = Nodes.text(object.path("spec"), "serviceAccountName");
            if (!account.equals(podAccount)) {
                throw StatusException.badRequest("cannot bind token for serviceaccount \"" + account
                        + "\" to pod running with different serviceaccount name.");
            }
        } else if (group.isEmpty() && kind.equals("Secret")) {
            object = secrets.get(ctx, objectName, "");
        } else if (group.isEmpty() && kind.equals("Node")) {
            object = nodes.get(RequestContext.system(""), objectName, "");
        } else {
            throw StatusException.badRequest("cannot bind token to object of type " + group + "/" + version
                    + ", Kind=" + kind);
        }
        String uid = Nodes.text(object.path("metadata"), "uid");
        String wanted = Nodes.text(ref, "uid");
        if (!wanted.isEmpty() && !wanted.equals(uid)) {
            throw StatusException.conflict(GroupResource.of(group, kind), objectName, "the UID in the bound object "
                    + "reference (" + wanted + ") does not match the UID in record. The object might have been "
                    + "deleted and then recreated");
        }
        return new TokenIssuer.BoundObject(kind, objectName, uid);
    }

    @Override
    public GroupVersionKind groupVersionKind(GroupVersion containingGV) {
        return TOKEN_REQUEST;
    }

    @Override
    public String kind() {
        return TOKEN_REQUEST.kind();
    }

    @Override
    public boolean namespaced() {
        return true;
    }

    @Override
    public String singularName() {
        return "";
    }
}
