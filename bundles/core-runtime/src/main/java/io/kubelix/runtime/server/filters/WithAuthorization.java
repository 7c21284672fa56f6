package io.kubelix.runtime.server.filters;

import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.runtime.audit.AuditContext;
import io.kubelix.runtime.request.Requests;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * WithAuthorization: health is always allowed (kube's always-allow paths); everything else is
 * decided by the server's authorization chain ({@code system:masters}, then the authorization
 * modes' authorizers). A request it does not allow is 403 Forbidden with kube-apiserver's message
 * naming the user, verb and resource, followed by the authorizers' reasons. The decision and its
 * reason are audit annotations ({@code authorization.k8s.io/decision}: allow or forbid,
 * {@code authorization.k8s.io/reason}).
 */
public final class WithAuthorization extends Handler.Wrapper {
    private static final Logger LOG = LoggerFactory.getLogger(WithAuthorization.class);

    /** The audit annotations of kube's authorization filter. */
    static final String DECISION_ANNOTATION = "authorization.k8s.io/decision";
    static final String REASON_ANNOTATION = "authorization.k8s.io/reason";

    private final AuthorizationChain authorization;
    private final boolean anonymous;

    /**
     * @param anonymous whether anonymous requests are allowed; when they are not, version is
     *                  public along with health, as authentication lets it through anonymously
     */
    public WithAuthorization(Handler next, AuthorizationChain authorization, boolean anonymous) {
        super(next);
        this.authorization = authorization;
        this.anonymous = anonymous;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        RequestInfo info = Requests.requestInfo(request);
        UserInfo user = Requests.user(request);
        if (PublicPaths.isHealth(info.path()) || (!anonymous && PublicPaths.isPublic(info.path()))) {
            return super.handle(request, response, callback);
        }
        AuthorizationDecision d = authorization.authorize(user, info);
        if (d.decision() == AuthorizationDecision.Decision.ALLOW) {
            AuditContext.addAnnotation(request, DECISION_ANNOTATION, "allow");
            AuditContext.addAnnotation(request, REASON_ANNOTATION, d.reason() == null ? "" : d.reason());
            return super.handle(request, response, callback);
        }
        AuditContext.addAnnotation(request, DECISION_ANNOTATION, "forbid");
        AuditContext.addAnnotation(request, REASON_ANNOTATION, d.reason() == null ? "" : d.reason());
        LOG.info("forbidden: user \"{}\" {} {}{}", user.name(), info.verb(), info.path(),
                d.reason().isEmpty() ? "" : ": " + d.reason());
        throw forbidden(user, info, d.reason());
    }

    static StatusException forbidden(UserInfo user, RequestInfo info, String reason) {
        String why = reason == null || reason.isEmpty() ? "" : ": " + reason;
        if (!info.resourceRequest()) {
            return new StatusException(StatusReason.FORBIDDEN, 403, "forbidden: User \"" + user.name()
                    + "\" cannot " + info.verb() + " path \"" + info.path() + "\"" + why, null, null);
        }
        String resource = info.subresource().isEmpty() ? info.resource() : info.resource() + "/" + info.subresource();
        // apierrors.NewForbidden names the group resource, without the subresource: deployments.apps "web".
        String qualified = new GroupResource(info.apiGroup(), info.resource()).toString();
        String subject = info.name().isEmpty() ? qualified : qualified + " \"" + info.name() + "\"";
        String scope = info.namespace().isEmpty() ? " at the cluster scope"
                : " in the namespace \"" + info.namespace() + "\"";
        String message = subject + " is forbidden: User \"" + user.name() + "\" cannot " + info.verb()
                + " resource \"" + resource + "\" in API group \"" + info.apiGroup() + "\"" + scope + why;
        return new StatusException(StatusReason.FORBIDDEN, 403, message,
                new StatusException.Details(info.name(), info.apiGroup(), info.resource(), List.of(), 0), null);
    }
}
