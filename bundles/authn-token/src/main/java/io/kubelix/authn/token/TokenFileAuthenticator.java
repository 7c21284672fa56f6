package io.kubelix.authn.token;

import io.kubelix.support.flags.FrameworkProperties;
import io.kubelix.api.authn.AuthenticationRequest;
import io.kubelix.api.authn.Authenticator;
import io.kubelix.api.request.UserInfo;
import io.kubelix.support.flags.ReloadingFile;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * kube-apiserver's {@code --token-auth-file}: static bearer tokens from a CSV file, reloaded when
 * the file changes. An unknown token is not recognised (empty), so another authenticator may
 * still accept it; when none does, the chain answers 401.
 */
@Component(service = Authenticator.class, configurationPid = TokenFileAuthenticator.PID,
        property = Constants.SERVICE_RANKING + ":Integer=0")
@Designate(ocd = TokenFileAuthenticator.Config.class)
public final class TokenFileAuthenticator implements Authenticator {

    static final String PID = "io.kubelix.authn.token";
    static final Duration CHECK_INTERVAL = Duration.ofSeconds(1);

    private static final Logger LOG = LoggerFactory.getLogger(TokenFileAuthenticator.class);

    @ObjectClassDefinition(name = "Kubelix token file authentication",
            description = "Bearer tokens from a CSV file in kube-apiserver's --token-auth-file format: "
                    + "token,user,uid,\"group1,group2\".")
    public @interface Config {
        @AttributeDefinition(name = "token-auth-file", required = false,
                description = "The token file. When empty: the framework property kubelix.token-auth-file, "
                        + "else tokens.csv in the framework property kubelix.data-dir, else .kubelix/tokens.csv.")
        String token$_$auth$_$file() default "";
    }

    private final ReloadingFile<TokenTable> tokens;

    @Activate
    public TokenFileAuthenticator(Config config, BundleContext context) {
        this(TokenFileLocation.resolve(config.token$_$auth$_$file(),
                FrameworkProperties.withContainerDefaults(context::getProperty)), CHECK_INTERVAL,
                System::nanoTime);
    }

    TokenFileAuthenticator(TokenFileLocation location, Duration checkInterval, LongSupplier nanoTime) {
        LOG.info("Authenticating bearer tokens from {} (set by {})", location.path(), location.source());
        this.tokens = new ReloadingFile<>("Token file", location.path(), checkInterval, nanoTime, TokenTable.EMPTY,
                content -> {
                    try {
                        return TokenCsv.parse(content, location.path().toString());
                    } catch (TokenCsv.MalformedTokenFileException e) {
                        throw new IllegalArgumentException(e.getMessage(), e);
                    }
                }, table -> table.size() + " token(s)");
    }

    @Override
    public Optional<UserInfo> authenticate(AuthenticationRequest request) {
        return request.bearerToken().flatMap(token -> tokens.current().lookup(token));
    }
}
