package io.kubelix.authn.x509;

import io.kubelix.support.flags.FrameworkProperties;
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

import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * kube-apiserver's x509 authenticator ({@code --client-ca-file}): a client certificate that chains
 * to a CA of the client CA file, is valid now, and may be used for client authentication (its
 * extended key usage, when it has one, includes {@code clientAuth}) authenticates as its subject's
 * common name, in the groups of its organizations. The file is reloaded when it changes. A
 * certificate that does not verify is not recognised, so a request with nothing else is 401. The
 * file is published to extension API servers as the {@code client-ca-file} they trust.
 */
@Component(service = {Authenticator.class, ClusterAuthenticationSource.class}, configurationPid = ClientCertificateAuthenticator.PID,
        property = Constants.SERVICE_RANKING + ":Integer=10")
@Designate(ocd = ClientCertificateAuthenticator.Config.class)
public final class ClientCertificateAuthenticator implements Authenticator, ClusterAuthenticationSource {
    static final String PID = "io.kubelix.authn.x509";
    static final Duration CHECK_INTERVAL = Duration.ofSeconds(1);
    private static final Logger LOG = LoggerFactory.getLogger(ClientCertificateAuthenticator.class);

    @ObjectClassDefinition(name = "Kubelix client certificate authentication",
            description = "Client certificates verified against the CAs of a PEM file, as kube-apiserver's "
                    + "--client-ca-file.")
    public @interface Config {
        @AttributeDefinition(name = "client-ca-file", required = false,
                description = "PEM CA certificates. When empty: the framework property kubelix.client-ca-file, "
                        + "else pki/ca.crt in the framework property kubelix.data-dir, else .kubelix/pki/ca.crt.")
        String client$_$ca$_$file() default "";
    }

    private final ReloadingFile<CertificateAuthorities> cas;
    private final Clock clock;

    @Activate
    public ClientCertificateAuthenticator(Config config, BundleContext context) {
        this(location(config.client$_$ca$_$file(), context), CHECK_INTERVAL, System::nanoTime, Clock.systemUTC());
    }

    ClientCertificateAuthenticator(Path caFile, Duration checkInterval, LongSupplier nanoTime, Clock clock) {
        LOG.info("Authenticating client certificates against the CAs of {}", caFile);
        this.cas = new ReloadingFile<>("Client CA file", caFile, checkInterval, nanoTime, CertificateAuthorities.NONE,
                CertificateAuthorities::parse, c -> c.size() + " CA certificate(s)");
        this.clock = clock;
    }

    @Override
    public Optional<UserInfo> authenticate(AuthenticationRequest request) {
        List<X509Certificate> chain = request.peerCertificates();
        if (chain.isEmpty()) {
            return Optional.empty();
        }
        X509Certificate leaf = chain.get(0);
        try {
            cas.current().verifyClient(chain, clock.instant());
        } catch (GeneralSecurityException e) {
            LOG.debug("client certificate \"{}\" from {} not accepted: {}", leaf.getSubjectX500Principal(),
                    request.remoteAddress(), e.getMessage());
            return Optional.empty();
        }
        return user(leaf);
    }

    @Override
    public ClusterAuthenticationInfo clusterAuthenticationInfo() {
        return ClusterAuthenticationInfo.clientCA(cas.path());
    }

    /** kube's CommonNameUserConversion: CN is the user, each O a group; no CN, no user. */
    static Optional<UserInfo> user(X509Certificate leaf) {
        String name = "";
        List<String> groups = new ArrayList<>();
        try {
            // LdapName's RDNs run in the certificate's own order (the reverse of the string's).
            for (Rdn rdn : new LdapName(leaf.getSubjectX500Principal().getName()).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    name = rdn.getValue().toString();
                } else if (rdn.getType().equalsIgnoreCase("O")) {
                    groups.add(rdn.getValue().toString());
                }
            }
        } catch (InvalidNameException e) {
            return Optional.empty();
        }
        if (name.isEmpty()) {
            return Optional.empty();
        }
        groups.add(UserInfo.ALL_AUTHENTICATED);
        return Optional.of(new UserInfo(name, "", groups, Map.of()));
    }

    private static Path location(String configured, BundleContext context) {
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath();
        }
        String flag = context.getProperty("kubelix.client-ca-file");
        if (flag != null && !flag.isBlank()) {
            return Path.of(flag).toAbsolutePath();
        }
        String dataDir = FrameworkProperties.withContainerDefaults(context::getProperty).apply(FrameworkProperties.DATA_DIR);
        return Path.of(dataDir == null || dataDir.isBlank() ? ".kubelix" : dataDir, "pki", "ca.crt").toAbsolutePath();
    }
}
