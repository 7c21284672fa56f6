package io.kubelix.runtime.server;

import io.kubelix.api.authn.AudienceAwareAuthenticator;
import io.kubelix.api.authn.Authenticated;
import io.kubelix.api.authn.AuthenticationChain;
import io.kubelix.api.authn.AuthenticationRequest;
import io.kubelix.api.authn.Authenticator;
import io.kubelix.api.authn.TokenIssuer;
import io.kubelix.api.request.UserInfo;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * kube's union authenticator with its audiences: the authenticators in ranking order, the first
 * that recognises the credentials wins. Requests to the server are checked against the API
 * server's audiences ({@code --api-audiences}, by default the service account issuer); a
 * TokenReview's against its {@code spec.audiences}. The API server's audiences are read per
 * call: without {@code --api-audiences} they are the token issuer's defaults, which follow the
 * service account issuer however it is configured (flag or the plugin's own configuration). Audience-agnostic authenticators (every one
 * but {@link AudienceAwareAuthenticator}s) count as meant for the API server's audiences only, as
 * kube's {@code WrapAudienceAgnosticToken}: for audiences that share none with them, they are not asked.
 */
public final class Authentication implements AuthenticationChain {
    private final Supplier<List<Authenticator>> authenticators;
    private final Supplier<List<String>> apiAudiences;

    /** @param apiAudiences the API server's audiences, never empty (see {@link #apiAudiences(String, Supplier)}) */
    public Authentication(Supplier<List<Authenticator>> authenticators, Supplier<List<String>> apiAudiences) {
        this.authenticators = authenticators;
        this.apiAudiences = apiAudiences;
    }

    /**
     * kube's API audiences: {@code --api-audiences} (comma-separated) when given, else the default
     * audiences of the service account token issuer when one is installed (its issuer, as kube
     * defaults them), else kube's default issuer.
     */
    static Supplier<List<String>> apiAudiences(String flag, Supplier<TokenIssuer> issuer) {
        List<String> given = flag == null ? List.of() : List.of(flag.split(",")).stream().map(String::trim)
                .filter(a -> !a.isEmpty()).distinct().toList();
        if (!given.isEmpty()) {
            return () -> given;
        }
        List<String> fallback = List.of(TokenIssuer.DEFAULT_ISSUER);
        return () -> {
            TokenIssuer current = issuer.get();
            List<String> defaults = current == null ? List.of() : current.defaultAudiences();
            return defaults.isEmpty() ? fallback : defaults;
        };
    }

    /** Who a request to this server is, or empty when no authenticator recognises its credentials. */
    public Optional<UserInfo> authenticate(AuthenticationRequest request) {
        for (Authenticator a : authenticators.get()) {
            Optional<UserInfo> user = a instanceof AudienceAwareAuthenticator aware
                    ? aware.authenticate(request, apiAudiences.get()).map(Authenticated::user)
                    : a.authenticate(request);
            if (user.isPresent()) {
                return user;
            }
        }
        return Optional.empty();
    }

    @Override
    public Optional<Authenticated> authenticateToken(String token, List<String> audiences) {
        List<String> api = apiAudiences.get();
        List<String> wanted = audiences.isEmpty() ? api : audiences;
        List<String> agnostic = api.stream().filter(wanted::contains).toList();
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
        return apiAudiences.get();
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
