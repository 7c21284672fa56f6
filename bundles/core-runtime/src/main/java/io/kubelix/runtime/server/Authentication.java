package io.kubelix.runtime.server;

import io.kubelix.api.authn.AudienceAwareAuthenticator;
import io.kubelix.api.authn.Authenticated;
import io.kubelix.api.authn.AuthenticationChain;
import io.kubelix.api.authn.AuthenticationRequest;
import io.kubelix.api.authn.Authenticator;
import io.kubelix.api.request.UserInfo;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * kube's union authenticator with its audiences: the authenticators in ranking order, the first
 * that recognises the credentials wins. Requests to the server are checked against the API
 * server's audiences ({@code --api-audiences}, by default the service account issuer); a
 * TokenReview's against its {@code spec.audiences}. Audience-agnostic authenticators (every one
 * but {@link AudienceAwareAuthenticator}s) count as meant for the API server's audiences only, as
 * kube's {@code WrapAudienceAgnosticToken}: for audiences that share none with them, they are not asked.
 */
public final class Authentication implements AuthenticationChain {
    private final Supplier<List<Authenticator>> authenticators;
    private final List<String> apiAudiences;

    public Authentication(Supplier<List<Authenticator>> authenticators, List<String> apiAudiences) {
        if (apiAudiences.isEmpty()) {
            throw new IllegalArgumentException("the API server needs at least one audience");
        }
        this.authenticators = authenticators;
        this.apiAudiences = List.copyOf(apiAudiences);
    }

    /** Parses {@code --api-audiences} (comma-separated); unset, the service account issuer. */
    static List<String> apiAudiences(String flag, String serviceAccountIssuer) {
        List<String> audiences = flag == null ? List.of() : List.of(flag.split(",")).stream().map(String::trim)
                .filter(a -> !a.isEmpty()).distinct().toList();
        return audiences.isEmpty() ? List.of(serviceAccountIssuer) : audiences;
    }

    /** Who a request to this server is, or empty when no authenticator recognises its credentials. */
    public Optional<UserInfo> authenticate(AuthenticationRequest request) {
        for (Authenticator a : authenticators.get()) {
            Optional<UserInfo> user = a instanceof AudienceAwareAuthenticator aware
                    ? aware.authenticate(request, apiAudiences).map(Authenticated::user)
                    : a.authenticate(request);
            if (user.isPresent()) {
                return user;
            }
        }
        return Optional.empty();
    }

    @Override
    public Optional<Authenticated> authenticateToken(String token, List<String> audiences) {
        List<String> wanted = audiences.isEmpty() ? apiAudiences : audiences;
        List<String> agnostic = apiAudiences.stream().filter(wanted::contains).toList();
        AuthenticationRequest request = new TokenOnly(token);
        for (Authenticator a : authenticators.get()) {
            if (a instanceof AudienceAwareAuthenticator aware) {
                Optional<Authenticated> authenticated = aware.authenticate(request, wanted);
                if (authenticated.isPresent()) {
                    return authenticated;
                }
            } else if (!agnostic.isEmpty()) {
                Optional<UserInfo> user = a.authenticate(request);
                if (user.isPresent()) {
                    return Optional.of(new Authenticated(user.get(), agnostic));
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public List<String> apiAudiences() {
        return apiAudiences;
    }

    /** A request that carries a bearer token and nothing else, as TokenReview authenticates it. */
    private record TokenOnly(String token) implements AuthenticationRequest {
        @Override
        public String header(String name) {
            return "Authorization".equalsIgnoreCase(name) ? "Bearer " + token : null;
        }

        @Override
        public List<X509Certificate> peerCertificates() {
            return List.of();
        }

        @Override
        public String remoteAddress() {
            return "";
        }
    }
}
