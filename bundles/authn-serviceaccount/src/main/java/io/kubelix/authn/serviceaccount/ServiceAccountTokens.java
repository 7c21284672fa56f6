package io.kubelix.authn.serviceaccount;

import io.kubelix.support.flags.FrameworkProperties;
import io.kubelix.api.authn.AudienceAwareAuthenticator;
import io.kubelix.api.authn.Authenticated;
import io.kubelix.api.authn.AuthenticationRequest;
import io.kubelix.api.authn.Authenticator;
import io.kubelix.api.authn.TokenIssuer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.request.UserInfo;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kube-apiserver's service account token machinery as one plugin: the {@link TokenIssuer} the
 * {@code serviceaccounts/token} subresource calls, and the {@link Authenticator} of the tokens it
 * issues. Both share the signing key, so they are one component. Ranked below the token file,
 * as kube tries the token file first.
 */
@Component(service = {TokenIssuer.class, Authenticator.class}, configurationPid = ServiceAccountTokens.PID,
        property = Constants.SERVICE_RANKING + ":Integer=-10")
@Designate(ocd = ServiceAccountTokens.Config.class)
public final class ServiceAccountTokens implements TokenIssuer, AudienceAwareAuthenticator {
    static final String PID = "io.kubelix.authn.serviceaccount";

    private static final Logger LOG = LoggerFactory.getLogger(ServiceAccountTokens.class);

    @ObjectClassDefinition(name = "Kubelix service account tokens",
            description = "Issues and authenticates service account tokens (JWT, RS256). Each setting, when empty, "
                    + "is the framework property kubelix.<name>, which bin/kubelix sets from the flag of that name.")
    public @interface Config {
        @AttributeDefinition(name = "service-account-issuer", required = false,
                description = "The iss of issued tokens and the audience the API server accepts "
                        + "(default https://kubernetes.default.svc.cluster.local).")
        String service$_$account$_$issuer() default "";

        @AttributeDefinition(name = "service-account-signing-key-file", required = false,
                description = "PEM RSA private key tokens are signed with (default: generated in the data directory).")
        String service$_$account$_$signing$_$key$_$file() default "";

        @AttributeDefinition(name = "service-account-key-file", required = false,
                description = "PEM RSA keys tokens are verified with, besides the signing key.")
        String service$_$account$_$key$_$file() default "";

        @AttributeDefinition(name = "service-account-max-token-expiration", required = false,
                description = "The longest lifetime a token is issued with, such as 24h (default: no maximum).")
        String service$_$account$_$max$_$token$_$expiration() default "";
    }

    private final JwtTokenIssuer issuer;
    private final JwtTokenAuthenticator authenticator;

    @Activate
    public ServiceAccountTokens(Config config, BundleContext context, @Reference SharedInformerFactory informers) {
        this(settings(config, context), new InformerTokenGetter(informers));
    }

    ServiceAccountTokens(ServiceAccountSettings settings, ServiceAccountTokenGetter getter) {
        SigningKeys keys;
        try {
            keys = SigningKeys.load(settings);
        } catch (KeyFileException e) {
            LOG.error("Service account tokens are not issued nor accepted: {}", e.getMessage());
            throw e;
        }
        LOG.info("Issuing service account tokens for issuer {}, signed with the key {} (kid {})",
                settings.issuer(), keys.source(), keys.keyId());
        this.issuer = new JwtTokenIssuer(settings, keys, Clock.systemUTC());
        this.authenticator = new JwtTokenAuthenticator(settings, keys, Clock.systemUTC(), getter);
    }

    private static ServiceAccountSettings settings(Config config, BundleContext context) {
        Map<String, String> configured = Map.of(
                "service-account-issuer", config.service$_$account$_$issuer(),
                "service-account-signing-key-file", config.service$_$account$_$signing$_$key$_$file(),
                "service-account-key-file", config.service$_$account$_$key$_$file(),
                "service-account-max-token-expiration", config.service$_$account$_$max$_$token$_$expiration());
        try {
            return ServiceAccountSettings.resolve(configured::get,
                    FrameworkProperties.withContainerDefaults(context::getProperty));
        } catch (IllegalArgumentException e) {
            LOG.error("Service account tokens are not issued nor accepted: {}", e.getMessage());
            throw new KeyFileException(e.getMessage());
        }
    }

    @Override
    public List<String> defaultAudiences() {
        return issuer.defaultAudiences();
    }

    @Override
    public IssuedToken issue(ServiceAccount account, List<String> audiences, long expirationSeconds,
                             BoundObject boundObject) {
        return issuer.issue(account, audiences, expirationSeconds, boundObject);
    }

    @Override
    public Optional<UserInfo> authenticate(AuthenticationRequest request) {
        return authenticator.authenticate(request);
    }

    @Override
    public Optional<Authenticated> authenticate(AuthenticationRequest request, List<String> audiences) {
        return authenticator.authenticate(request, audiences);
    }
}
