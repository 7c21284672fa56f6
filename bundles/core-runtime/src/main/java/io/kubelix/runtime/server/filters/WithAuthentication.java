package io.kubelix.runtime.server.filters;

import io.kubelix.api.authn.AuthenticationRequest;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.UserInfo;
import io.kubelix.runtime.request.Requests;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * WithAuthentication: asks the authenticators, highest ranking first, who is calling. The first
 * that recognises the credentials wins. A request that presents no credentials (no
 * {@code Authorization} header, no client certificate) proceeds as {@code system:anonymous} in
 * group {@code system:unauthenticated} when anonymous requests are allowed (kube-apiserver's
 * {@code --anonymous-auth}), and authorization decides what it may do; credentials nobody
 * recognises are 401 Unauthorized. With anonymous requests refused, health and version still
 * answer anonymously. The list is read per request, so authenticators that come or go take
 * effect at once.
 */
public final class WithAuthentication extends Handler.Wrapper {
    private static final Logger LOG = LoggerFactory.getLogger(WithAuthentication.class);
    private static final UserInfo ANONYMOUS = new UserInfo(UserInfo.ANONYMOUS, "",
            List.of(UserInfo.ALL_UNAUTHENTICATED), Map.of());

    private final Function<AuthenticationRequest, Optional<UserInfo>> authenticators;
    private final boolean anonymous;
    private final BiConsumer<Request, StatusException> failed;

    /** @param authenticators the union of the authenticators, asked with the API server's audiences */
    public WithAuthentication(Handler next, Function<AuthenticationRequest, Optional<UserInfo>> authenticators,
                              boolean anonymous) {
        this(next, authenticators, anonymous, (request, e) -> { });
    }

    /** @param failed told of each request refused 401 (kube's failed-authentication audit) */
    public WithAuthentication(Handler next, Function<AuthenticationRequest, Optional<UserInfo>> authenticators,
                              boolean anonymous, BiConsumer<Request, StatusException> failed) {
        super(next);
        this.authenticators = authenticators;
        this.anonymous = anonymous;
        this.failed = failed;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        AuthenticationRequest authRequest = new JettyAuthenticationRequest(request);
        Optional<UserInfo> user;
        try {
            user = authenticators.apply(authRequest);
        } catch (StatusException e) {
            if (e.code() == 401) {
                failed.accept(request, e);
            }
            throw e;
        }
        if (user.isPresent()) {
            Requests.setUser(request, user.get());
            return super.handle(request, response, callback);
        }
        boolean noCredentials = authRequest.header("Authorization") == null && authRequest.peerCertificates().isEmpty();
        if ((anonymous && noCredentials) || PublicPaths.isPublic(Request.getPathInContext(request))) {
            Requests.setUser(request, ANONYMOUS);
            return super.handle(request, response, callback);
        }
        LOG.debug("{} {} from {}: no authenticator recognised the credentials", request.getMethod(),
                request.getHttpURI().getPath(), authRequest.remoteAddress());
        StatusException unauthorized = StatusException.unauthorized("Unauthorized");
        failed.accept(request, unauthorized);
        throw unauthorized;
    }

    private record JettyAuthenticationRequest(Request request) implements AuthenticationRequest {
        @Override
        public String header(String name) {
            return request.getHeaders().get(name);
        }

        @Override
        public List<String> headers(String name) {
            return request.getHeaders().getValuesList(name);
        }

        @Override
        public Set<String> headerNames() {
            return request.getHeaders().getFieldNamesCollection();
        }

        @Override
        public List<X509Certificate> peerCertificates() {
            Object ssl = request.getAttribute(EndPoint.SslSessionData.ATTRIBUTE);
            if (ssl instanceof EndPoint.SslSessionData data && data.peerCertificates() != null) {
                return List.of(data.peerCertificates());
            }
            return List.of();
        }

        @Override
        public String remoteAddress() {
            return Request.getRemoteAddr(request);
        }
    }
}
