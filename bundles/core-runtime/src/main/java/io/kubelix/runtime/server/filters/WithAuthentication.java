package io.kubelix.runtime.server.filters;

import io.kubelix.api.authn.AuthenticationRequest;
import io.kubelix.api.authn.Authenticator;
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
import java.util.function.Supplier;

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

    private final Supplier<List<Authenticator>> authenticators;
    private final boolean anonymous;

    public WithAuthentication(Handler next, Supplier<List<Authenticator>> authenticators, boolean anonymous) {
        super(next);
        this.authenticators = authenticators;
        this.anonymous = anonymous;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        AuthenticationRequest authRequest = new JettyAuthenticationRequest(request);
        for (Authenticator a : authenticators.get()) {
            Optional<UserInfo> user = a.authenticate(authRequest);
            if (user.isPresent()) {
                Requests.setUser(request, user.get());
                return super.handle(request, response, callback);
            }
        }
        boolean noCredentials = authRequest.header("Authorization") == null && authRequest.peerCertificates().isEmpty();
        if ((anonymous && noCredentials) || PublicPaths.isPublic(Request.getPathInContext(request))) {
            Requests.setUser(request, ANONYMOUS);
            return super.handle(request, response, callback);
        }
        LOG.debug("{} {} from {}: no authenticator recognised the credentials", request.getMethod(),
                request.getHttpURI().getPath(), authRequest.remoteAddress());
        throw StatusException.unauthorized("Unauthorized");
    }

    private record JettyAuthenticationRequest(Request request) implements AuthenticationRequest {
        @Override
        public String header(String name) {
            return request.getHeaders().get(name);
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
