package io.kubelix.runtime.server.filters;

import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.runtime.audit.AuditContext;
import io.kubelix.runtime.request.Requests;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * WithImpersonation: a request with {@code Impersonate-User} (and optionally
 * {@code Impersonate-Group}, {@code Impersonate-Uid}, {@code Impersonate-Extra-<key>}) acts as
 * that user when the requester may {@code impersonate} each part, as kube-apiserver checks it:
 * {@code users} (or {@code serviceaccounts} in their namespace for
 * {@code system:serviceaccount:<ns>:<name>}), {@code groups}, and in {@code authentication.k8s.io}
 * {@code uids} and {@code userextras/<key>}. The impersonated user gets {@code system:authenticated}
 * unless a group says otherwise (a service account without groups gets its fixed ones), and the
 * headers are removed before the request goes on. A part the requester may not impersonate is
 * 403 with kube's message; groups, uid or extras without a user are 400.
 */
public final class WithImpersonation extends Handler.Wrapper {
    private static final Logger LOG = LoggerFactory.getLogger(WithImpersonation.class);
    static final String USER = "Impersonate-User";
    static final String GROUP = "Impersonate-Group";
    static final String UID = "Impersonate-Uid";
    static final String EXTRA_PREFIX = "impersonate-extra-";
    private static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";
    private static final String AUTHENTICATION_GROUP = "authentication.k8s.io";

    private final AuthorizationChain authorization;

    public WithImpersonation(Handler next, AuthorizationChain authorization) {
        super(next);
        this.authorization = authorization;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        HttpFields headers = request.getHeaders();
        String requestedUser = headers.get(USER);
        List<String> requestedGroups = headers.getValuesList(GROUP);
        String requestedUid = headers.get(UID);
        Map<String, List<String>> requestedExtra = extras(headers);
        boolean hasUser = requestedUser != null && !requestedUser.isEmpty();
        boolean hasUid = requestedUid != null && !requestedUid.isEmpty();
        if (!hasUser && requestedGroups.isEmpty() && requestedExtra.isEmpty() && !hasUid) {
            return super.handle(request, response, callback);
        }
        if (!hasUser) {
            throw StatusException.badRequest("requested impersonation of groups, a uid or extras without impersonating"
                    + " a user");
        }
        UserInfo requester = Requests.user(request);

        // 1. The user, a service account or a plain user.
        String username = requestedUser;
        List<String> groups = new ArrayList<>();
        String[] sa = serviceAccount(requestedUser);
        if (sa != null) {
            check(requester, attributes("", sa[0], "serviceaccounts", "", sa[1]));
            if (requestedGroups.isEmpty()) {
                groups.add("system:serviceaccounts");
                groups.add("system:serviceaccounts:" + sa[0]);
            }
        } else {
            check(requester, attributes("", "", "users", "", requestedUser));
        }
        // 2. Groups, extras and uid, each checked on its own.
        for (String group : requestedGroups) {
            check(requester, attributes("", "", "groups", "", group));
            groups.add(group);
        }
        for (Map.Entry<String, List<String>> e : requestedExtra.entrySet()) {
            for (String value : e.getValue()) {
                check(requester, attributes(AUTHENTICATION_GROUP, "", "userextras", e.getKey(), value));
            }
        }
        if (hasUid) {
            check(requester, attributes(AUTHENTICATION_GROUP, "", "uids", "", requestedUid));
        }
        // 3. system:authenticated, or system:unauthenticated for the anonymous user, unless a group says otherwise.
        if (!username.equals(UserInfo.ANONYMOUS)) {
            if (!groups.contains(UserInfo.ALL_AUTHENTICATED) && !groups.contains(UserInfo.ALL_UNAUTHENTICATED)) {
                groups.add(UserInfo.ALL_AUTHENTICATED);
            }
        } else if (!groups.contains(UserInfo.ALL_UNAUTHENTICATED)) {
            groups.add(UserInfo.ALL_UNAUTHENTICATED);
        }
        UserInfo impersonated = new UserInfo(username, hasUid ? requestedUid : "", groups, requestedExtra);
        LOG.debug("user \"{}\" impersonates \"{}\" (groups {})", requester.name(), username, groups);
        Requests.setUser(request, impersonated);
        AuditContext.logImpersonatedUser(request, impersonated);
        return super.handle(new WithoutImpersonationHeaders(request), response, callback);
    }

    private void check(UserInfo requester, RequestInfo attributes) {
        AuthorizationDecision d = authorization.authorize(requester, attributes);
        if (d.decision() != AuthorizationDecision.Decision.ALLOW) {
            LOG.info("forbidden: user \"{}\" cannot impersonate {} \"{}\"", requester.name(), attributes.resource(),
                    attributes.name());
            throw WithAuthorization.forbidden(requester, attributes, d.reason());
        }
    }

    private static RequestInfo attributes(String group, String namespace, String resource, String subresource,
                                          String name) {
        return new RequestInfo(true, "", "impersonate", group.isEmpty() ? "api" : "apis", group, "v1", namespace,
                resource, subresource, name, List.of());
    }

    /** serviceaccount.SplitUsername: namespace and name, or null when not a service account's name. */
    private static String[] serviceAccount(String username) {
        if (!username.startsWith(SERVICE_ACCOUNT_PREFIX)) {
            return null;
        }
        String[] parts = username.substring(SERVICE_ACCOUNT_PREFIX.length()).split(":", -1);
        return parts.length == 2 && !parts[0].isEmpty() && !parts[1].isEmpty() ? parts : null;
    }

    /** {@code Impersonate-Extra-<key>} headers: keys lower-cased, then percent-decoded, as kube's. */
    private static Map<String, List<String>> extras(HttpFields headers) {
        Map<String, List<String>> extra = new LinkedHashMap<>();
        for (HttpField f : headers) {
            String name = f.getName().toLowerCase(Locale.ROOT);
            if (name.startsWith(EXTRA_PREFIX)) {
                String key = URLDecoder.decode(name.substring(EXTRA_PREFIX.length()), StandardCharsets.UTF_8);
                extra.computeIfAbsent(key, k -> new ArrayList<>()).add(f.getValue());
            }
        }
        return extra;
    }

    private static boolean isImpersonation(HttpField f) {
        String name = f.getName();
        return name.equalsIgnoreCase(USER) || name.equalsIgnoreCase(GROUP) || name.equalsIgnoreCase(UID)
                || name.toLowerCase(Locale.ROOT).startsWith(EXTRA_PREFIX);
    }

    /** The request without its impersonation headers, so nothing downstream acts on them again. */
    private static final class WithoutImpersonationHeaders extends Request.Wrapper {
        private final HttpFields headers;

        WithoutImpersonationHeaders(Request request) {
            super(request);
            HttpFields.Mutable kept = HttpFields.build();
            for (HttpField f : request.getHeaders()) {
                if (!isImpersonation(f)) {
                    kept.add(f);
                }
            }
            headers = kept.asImmutable();
        }

        @Override
        public HttpFields getHeaders() {
            return headers;
        }
    }
}
