package io.kubelix.authn.serviceaccount;

import io.kubelix.api.authn.TokenIssuer;
import io.kubelix.support.time.GoDuration;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The issuer's settings, each from the component's configuration, else the framework property
 * {@code kubelix.<flag>} that {@code bin/kubelix} sets from kube-apiserver's flag of that name,
 * else kube's default.
 *
 * @param issuer             {@code --service-account-issuer}: the {@code iss} of issued tokens and
 *                           the one audience the API server accepts
 * @param signingKeyFile     {@code --service-account-signing-key-file}, or null
 * @param keyFile            {@code --service-account-key-file} (verification keys), or null
 * @param dataDir            where the generated signing key lives when no key file is named
 * @param maxTokenExpiration {@code --service-account-max-token-expiration}, or null for no cap
 * @param apiAudiences       {@code --api-audiences}: what the API server accepts tokens for, and
 *                           what a token is issued for when its request names no audience (default:
 *                           the issuer)
 */
record ServiceAccountSettings(String issuer, Path signingKeyFile, Path keyFile, Path dataDir,
                              Duration maxTokenExpiration, List<String> apiAudiences) {

    static final String DEFAULT_ISSUER = TokenIssuer.DEFAULT_ISSUER;
    static final Path DEFAULT_DATA_DIR = Path.of(".kubelix");

    ServiceAccountSettings {
        apiAudiences = List.copyOf(apiAudiences);
    }

    /** Settings whose API audience is the issuer, as kube's default. */
    ServiceAccountSettings(String issuer, Path signingKeyFile, Path keyFile, Path dataDir, Duration maxTokenExpiration) {
        this(issuer, signingKeyFile, keyFile, dataDir, maxTokenExpiration, List.of(issuer));
    }

    /**
     * @param config            the component's settings by flag name (blank when unset)
     * @param frameworkProperty the framework's properties ({@code BundleContext::getProperty})
     * @throws IllegalArgumentException naming the setting that is malformed
     */
    static ServiceAccountSettings resolve(UnaryOperator<String> config, UnaryOperator<String> frameworkProperty) {
        UnaryOperator<String> setting = name -> {
            String value = config.apply(name);
            if (blank(value)) {
                value = frameworkProperty.apply("kubelix." + name);
            }
            return blank(value) ? null : value.trim();
        };
        String issuer = setting.apply("service-account-issuer");
        if (issuer != null && issuer.contains(":") && !issuer.startsWith("https://")) {
            // kube's check: an issuer with a colon is a URL, and then an https one
            throw new IllegalArgumentException("--service-account-issuer \"" + issuer
                    + "\" contained a ':' but was not a valid URL with the https scheme");
        }
        String dataDir = setting.apply("data-dir");
        String max = setting.apply("service-account-max-token-expiration");
        Duration maxExpiration = max == null ? null : GoDuration.parseFlag("--service-account-max-token-expiration", max);
        if (maxExpiration != null && (maxExpiration.toSeconds() < 3600 || maxExpiration.toSeconds() > 1L << 32)) {
            throw new IllegalArgumentException("--service-account-max-token-expiration \"" + max
                    + "\" must be between 1 hour and 2^32 seconds");
        }
        String iss = issuer == null ? DEFAULT_ISSUER : issuer;
        String audiences = setting.apply("api-audiences");
        List<String> apiAudiences = audiences == null ? List.of(iss) : Arrays.stream(audiences.split(","))
                .map(String::trim).filter(a -> !a.isEmpty()).distinct().toList();
        return new ServiceAccountSettings(iss, path(setting.apply("service-account-signing-key-file")),
                path(setting.apply("service-account-key-file")),
                absolute(dataDir == null ? DEFAULT_DATA_DIR : Path.of(dataDir)), maxExpiration,
                apiAudiences.isEmpty() ? List.of(iss) : apiAudiences);
    }

    private static Path path(String value) {
        return value == null ? null : absolute(Path.of(value));
    }

    private static Path absolute(Path path) {
        return path.toAbsolutePath().normalize();
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
