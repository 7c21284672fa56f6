package io.kubelix.authn.oidc;

import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.kubelix.api.authn.AuthenticationRequest;
import io.kubelix.api.authn.Authenticator;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.UserInfo;
import io.kubelix.support.flags.ReloadingFile;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * kube-apiserver's OpenID Connect authenticator. A bearer token that is a JWT whose {@code iss} is a
 * configured issuer is verified against that issuer ({@link IssuerVerifier}) and authenticates as
 * the user its claims map to; one that fails is 401. Tokens of other issuers, and tokens that are
 * not JWTs, are left to the other authenticators. Issuers come from the legacy {@code --oidc-*}
 * flags or from {@code --authentication-config} (reloaded when the file changes, the last good
 * configuration kept when it is malformed); not both, as kube-apiserver refuses both.
 */
@Component(service = Authenticator.class, configurationPid = OidcAuthenticator.PID,
        property = Constants.SERVICE_RANKING + ":Integer=-20")
public final class OidcAuthenticator implements Authenticator {
    static final String PID = "io.kubelix.authn.oidc";
    private static final Logger LOG = LoggerFactory.getLogger(OidcAuthenticator.class);
    private static final String GOOGLE_LEGACY_ISSUER = "accounts.google.com";

    private final Supplier<List<IssuerVerifier>> issuers;

    @Activate
    public OidcAuthenticator(Map<String, Object> config, BundleContext context) {
        this(flag -> {
            Object configured = config.get(flag);
            if (configured != null && !configured.toString().isBlank()) {
                return configured.toString();
            }
            return context.getProperty("kubelix." + flag);
        }, Clock.systemUTC());
    }

    OidcAuthenticator(UnaryOperator<String> flag, Clock clock) {
        String file = flag.apply("authentication-config");
        JwtIssuer legacy = OidcFlags.issuer(flag, OidcAuthenticator::read);
        if (file != null && !file.isBlank()) {
            if (legacy != null) {
                throw new IllegalArgumentException("authentication-config file and oidc-* flags are mutually exclusive");
            }
            Path path = Path.of(file).toAbsolutePath();
            // Refused at start when malformed, as kube-apiserver refuses to start; later changes that are
            // malformed keep the last good configuration.
            AuthenticationConfiguration.parse(read(path.toString()));
            ReloadingFile<List<IssuerVerifier>> reloading = new ReloadingFile<>("Authentication configuration", path,
                    Duration.ofSeconds(1), System::nanoTime, List.of(),
                    text -> verifiers(AuthenticationConfiguration.parse(text), clock),
                    v -> v.size() + " JWT issuer(s) " + v.stream().map(i -> i.issuer().url()).toList());
            issuers = reloading::current;
        } else if (legacy != null) {
            List<IssuerVerifier> one = verifiers(List.of(legacy), clock);
            LOG.info("OIDC: accepting ID tokens of {} for client {}", legacy.url(), legacy.audiences().get(0));
            issuers = () -> one;
        } else {
            LOG.info("OIDC authentication is off: neither --oidc-issuer-url nor --authentication-config");
            issuers = List::of;
        }
    }

    private static List<IssuerVerifier> verifiers(List<JwtIssuer> issuers, Clock clock) {
        List<IssuerVerifier> verifiers = issuers.stream().map(i -> new IssuerVerifier(i, clock)).toList();
        // Discovery starts now, off the request path, as kube's authenticator initializes asynchronously.
        Thread discovery = new Thread(() -> verifiers.forEach(IssuerVerifier::discover), "kubelix-oidc-discovery");
        discovery.setDaemon(true);
        discovery.start();
        return verifiers;
    }

    private static String read(String file) {
        try {
            return Files.readString(Path.of(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<UserInfo> authenticate(AuthenticationRequest request) {
        List<IssuerVerifier> verifiers = issuers.get();
        if (verifiers.isEmpty()) {
            return Optional.empty();
        }
        String token = request.bearerToken().orElse(null);
        if (token == null || token.chars().filter(c -> c == '.').count() != 2 || token.trim().startsWith("{")) {
            return Optional.empty();
        }
        SignedJWT jwt;
        String iss;
        try {
            jwt = SignedJWT.parse(token);
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            iss = claims.getIssuer();
        } catch (ParseException e) {
            return Optional.empty();
        }
        if (GOOGLE_LEGACY_ISSUER.equals(iss)) {
            iss = "https://" + GOOGLE_LEGACY_ISSUER;
        }
        for (IssuerVerifier verifier : verifiers) {
            if (verifier.issuer().url().equals(iss)) {
                try {
                    return Optional.of(verifier.verify(jwt));
                } catch (IssuerVerifier.RefusedException e) {
                    LOG.info("OIDC token of {} from {} refused: {}", iss, request.remoteAddress(), e.getMessage());
                    throw StatusException.unauthorized("Unauthorized");
                }
            }
        }
        return Optional.empty();
    }
}
