package io.kubelix.authn.requestheader;

import io.kubelix.api.authn.AuthenticationRequest;
import io.kubelix.api.authn.Authenticator;
import io.kubelix.api.authn.ClusterAuthenticationInfo;
import io.kubelix.api.authn.ClusterAuthenticationSource;
import io.kubelix.api.request.UserInfo;
import io.kubelix.support.flags.CertificateAuthorities;
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

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * kube-apiserver's request header authenticator. A front proxy that has authenticated a user
 * itself passes the user on in headers ({@code X-Remote-User}, {@code X-Remote-Group},
 * {@code X-Remote-Extra-<key>} by convention; which ones is configured). The headers are believed
 * only from a client whose certificate chains to a CA of the request header client CA file and,
 * when allowed names are configured, whose common name is one of them; from anyone else they are
 * ignored, so a client cannot name itself someone else by sending them. Tried before the other
 * authenticators, as kube's union puts it first: a proxy's request without a user header falls
 * through to them (the proxy's certificate may still authenticate it by the client CA).
 *
 * <p>Enabled by its username headers: without any, it recognises nothing (kube's default). The
 * CA file is then required, and reloaded when it changes. The settings are published to extension
 * API servers, which trust the same front proxies.
 */
@Component(service = {Authenticator.class, ClusterAuthenticationSource.class}, configurationPid = RequestHeaderAuthenticator.PID,
        property = Constants.SERVICE_RANKING + ":Integer=20")
@Designate(ocd = RequestHeaderAuthenticator.Config.class)
public final class RequestHeaderAuthenticator implements Authenticator, ClusterAuthenticationSource {
    static final String PID = "io.kubelix.authn.requestheader";
    static final Duration CHECK_INTERVAL = Duration.ofSeconds(1);
    private static final Logger LOG = LoggerFactory.getLogger(RequestHeaderAuthenticator.class);

    @ObjectClassDefinition(name = "Kubelix request header authentication",
            description = "Users named in request headers by a front proxy whose client certificate verifies, as "
                    + "kube-apiserver's --requestheader-* flags. Each attribute, when empty, falls back to the "
                    + "framework property kubelix.requestheader-<name>.")
    public @interface Config {
        @AttributeDefinition(name = "client-ca-file", required = false,
                description = "PEM CA certificates the front proxy's client certificate must chain to.")
        String client$_$ca$_$file() default "";

        @AttributeDefinition(name = "allowed-names", required = false,
                description = "Comma-separated common names the proxy's certificate may have; empty: any "
                        + "certificate of the CA file.")
        String allowed$_$names() default "";

        @AttributeDefinition(name = "username-headers", required = false,
                description = "Comma-separated headers holding the user name, the first with a value wins; "
                        + "empty disables this authenticator. X-Remote-User is common.")
        String username$_$headers() default "";

        @AttributeDefinition(name = "uid-headers", required = false,
                description = "Comma-separated headers holding the user's UID, the first with a value wins.")
        String uid$_$headers() default "";

        @AttributeDefinition(name = "group-headers", required = false,
                description = "Comma-separated headers holding groups; every value of each is a group. "
                        + "X-Remote-Group is suggested.")
        String group$_$headers() default "";

        @AttributeDefinition(name = "extra-headers-prefix", required = false,
                description = "Comma-separated header prefixes; the rest of a matching header's name, "
                        + "lower-cased and percent-decoded, is an extra key. X-Remote-Extra- is suggested.")
        String extra$_$headers$_$prefix() default "";
    }

    /** The validated settings. */
    record Settings(Path clientCaFile, List<String> allowedNames, List<String> usernameHeaders, List<String> uidHeaders,
                    List<String> groupHeaders, List<String> extraPrefixes) {
        Settings {
            allowedNames = List.copyOf(allowedNames);
            usernameHeaders = List.copyOf(usernameHeaders);
            uidHeaders = List.copyOf(uidHeaders);
            groupHeaders = List.copyOf(groupHeaders);
            extraPrefixes = List.copyOf(extraPrefixes);
            if (!usernameHeaders.isEmpty() && clientCaFile == null) {
                throw new IllegalArgumentException("--requestheader-client-ca-file is required with "
                        + "--requestheader-username-headers: headers are believed only from a client certificate "
                        + "of that CA");
            }
        }

        boolean enabled() {
            return !usernameHeaders.isEmpty();
        }

        static Settings of(Function<String, String> setting) {
            String ca = setting.apply("client-ca-file");
            return new Settings(ca.isEmpty() ? null : Path.of(ca).toAbsolutePath(),
                    names(setting.apply("allowed-names")),
                    headers("username-headers", setting.apply("username-headers")),
                    headers("uid-headers", setting.apply("uid-headers")),
                    headers("group-headers", setting.apply("group-headers")),
                    headers("extra-headers-prefix", setting.apply("extra-headers-prefix")));
        }

        private static List<String> names(String list) {
            return list.isBlank() ? List.of() : Arrays.stream(list.split(",")).map(String::trim).toList();
        }

        private static List<String> headers(String flag, String list) {
            List<String> headers = names(list);
            for (String h : headers) {
                // kube's trimHeaders: an empty entry is an error, not ignored.
                if (h.isEmpty()) {
                    throw new IllegalArgumentException("--requestheader-" + flag + " \"" + list
                            + "\": empty header name");
                }
                if (!h.chars().allMatch(c -> c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0)) {
                    throw new IllegalArgumentException("--requestheader-" + flag + " \"" + list + "\": \"" + h
                            + "\" is not a valid header name");
                }
            }
            return headers;
        }
    }

    private final Settings settings;
    private final ReloadingFile<CertificateAuthorities> cas;
    private final Clock clock;

    @Activate
    public RequestHeaderAuthenticator(Config config, BundleContext context) {
        this(Settings.of(name -> {
            String configured = switch (name) {
                case "client-ca-file" -> config.client$_$ca$_$file();
                case "allowed-names" -> config.allowed$_$names();
                case "username-headers" -> config.username$_$headers();
                case "uid-headers" -> config.uid$_$headers();
                case "group-headers" -> config.group$_$headers();
                case "extra-headers-prefix" -> config.extra$_$headers$_$prefix();
                default -> throw new IllegalArgumentException(name);
            };
            if (configured != null && !configured.isBlank()) {
                return configured;
            }
            String property = context.getProperty("kubelix.requestheader-" + name);
            return property == null ? "" : property;
        }), CHECK_INTERVAL, System::nanoTime, Clock.systemUTC());
    }

    RequestHeaderAuthenticator(Settings settings, Duration checkInterval, LongSupplier nanoTime, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        if (settings.enabled()) {
            LOG.info("Authenticating users named in {} by front proxies with a client certificate of {}{}",
                    settings.usernameHeaders(), settings.clientCaFile(), settings.allowedNames().isEmpty() ? ""
                            : " named " + settings.allowedNames());
            cas = new ReloadingFile<>("Request header client CA file", settings.clientCaFile(), checkInterval,
                    nanoTime, CertificateAuthorities.NONE, CertificateAuthorities::parse,
                    c -> c.size() + " CA certificate(s)");
        } else {
            LOG.info("Request header authentication is off: no --requestheader-username-headers");
            cas = null;
        }
    }

    @Override
    public Optional<UserInfo> authenticate(AuthenticationRequest request) {
        if (cas == null) {
            return Optional.empty();
        }
        List<X509Certificate> chain = request.peerCertificates();
        if (chain.isEmpty()) {
            return Optional.empty();
        }
        try {
            cas.current().verifyClient(chain, clock.instant());
            allowed(chain.get(0));
        } catch (GeneralSecurityException e) {
            LOG.debug("request headers from {} (\"{}\") not believed: {}", request.remoteAddress(),
                    chain.get(0).getSubjectX500Principal(), e.getMessage());
            return Optional.empty();
        }
        String name = first(request, settings.usernameHeaders());
        if (name.isEmpty()) {
            return Optional.empty();
        }
        List<String> groups = new ArrayList<>();
        for (String header : settings.groupHeaders()) {
            for (String group : request.headers(header)) {
                if (!group.isEmpty()) {
                    groups.add(group);
                }
            }
        }
        if (!groups.contains(UserInfo.ALL_AUTHENTICATED)) {
            groups.add(UserInfo.ALL_AUTHENTICATED);
        }
        return Optional.of(new UserInfo(name, first(request, settings.uidHeaders()), groups, extra(request)));
    }

    /** The settings while enabled; nothing otherwise, as kube publishes no request header CA then. */
    @Override
    public ClusterAuthenticationInfo clusterAuthenticationInfo() {
        if (!settings.enabled()) {
            return new ClusterAuthenticationInfo(null, null, List.of(), List.of(), List.of(), List.of(), List.of());
        }
        return new ClusterAuthenticationInfo(null, settings.clientCaFile(), settings.allowedNames(),
                settings.usernameHeaders(), settings.uidHeaders(), settings.groupHeaders(), settings.extraPrefixes());
    }

    private void allowed(X509Certificate leaf) throws GeneralSecurityException {
        if (settings.allowedNames().isEmpty()) {
            return;
        }
        String cn = CertificateAuthorities.commonName(leaf);
        if (!settings.allowedNames().contains(cn)) {
            throw new GeneralSecurityException("x509: subject with cn=" + cn + " is not in the allowed list");
        }
    }

    private static String first(AuthenticationRequest request, List<String> headers) {
        for (String header : headers) {
            String value = request.header(header);
            if (value != null && !value.isEmpty()) {
                return value;
            }
        }
        return "";
    }

    /** Every header matching a prefix, in the prefixes' order: key lower-cased and percent-decoded. */
    private Map<String, List<String>> extra(AuthenticationRequest request) {
        if (settings.extraPrefixes().isEmpty()) {
            return Map.of();
        }
        Map<String, List<String>> extra = new LinkedHashMap<>();
        for (String prefix : settings.extraPrefixes()) {
            for (String header : request.headerNames()) {
                if (header.length() > prefix.length() && header.regionMatches(true, 0, prefix, 0, prefix.length())) {
                    String key = unescape(header.substring(prefix.length()).toLowerCase(Locale.ROOT));
                    extra.computeIfAbsent(key, k -> new ArrayList<>()).addAll(request.headers(header));
                }
            }
        }
        return extra;
    }

    /** Go's url.PathUnescape; a malformed escape keeps the key as sent, as kube does. */
    private static String unescape(String key) {
        if (key.indexOf('%') < 0) {
            return key;
        }
        try {
            return URLDecoder.decode(key.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return key;
        }
    }
}
