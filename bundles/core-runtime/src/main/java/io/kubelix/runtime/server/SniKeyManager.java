package io.kubelix.runtime.server;

import io.kubelix.runtime.bootstrap.ServingKeys;
import io.kubelix.runtime.bootstrap.SniCertKey;

import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.StandardConstants;
import javax.net.ssl.X509ExtendedKeyManager;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Chooses the serving certificate by the name the client asks for in SNI, as kube-apiserver's
 * named certificates do: an exact name first, then wildcards replacing ever more labels from the
 * left; names given explicitly in a flag win over names read from a certificate, and an earlier
 * flag over a later one. No SNI, or a name no certificate has, gets the default certificate.
 *
 * <p>Each certificate keeps the JDK's key manager of its own, which picks whether its key suits the
 * handshake's key type; aliases returned are prefixed with the certificate's index.
 */
final class SniKeyManager extends X509ExtendedKeyManager {
    private final List<X509ExtendedKeyManager> managers = new ArrayList<>();
    private final Map<String, Integer> byName = new HashMap<>();

    SniKeyManager(ServingCertificates certificates) {
        managers.add(manager(certificates.fallback()));
        for (SniCertKey.Named named : certificates.named()) {
            managers.add(manager(named.keys()));
        }
        // Explicit names first, so that no certificate's own name shadows them.
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < certificates.named().size(); i++) {
                SniCertKey.Named named = certificates.named().get(i);
                if (named.explicit() == (pass == 0)) {
                    for (String name : named.names()) {
                        byName.putIfAbsent(name, i + 1);
                    }
                }
            }
        }
    }

    /** The index of the certificate serving {@code host}: 0, the default, when none names it. */
    int select(String host) {
        if (host == null || host.isEmpty()) {
            return 0;
        }
        String name = host.toLowerCase(Locale.ROOT);
        Integer exact = byName.get(name);
        if (exact != null) {
            return exact;
        }
        String[] labels = name.split("\\.", -1);
        for (int i = 0; i < labels.length; i++) {
            labels[i] = "*";
            Integer wildcard = byName.get(String.join(".", labels));
            if (wildcard != null) {
                return wildcard;
            }
        }
        return 0;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        int i = select(requestedHost(engine == null ? null : engine.getHandshakeSession()));
        return prefixed(i, managers.get(i).chooseEngineServerAlias(keyType, issuers, engine));
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        int i = select(requestedHost(socket instanceof SSLSocket ssl ? ssl.getHandshakeSession() : null));
        return prefixed(i, managers.get(i).chooseServerAlias(keyType, issuers, socket));
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        List<String> aliases = new ArrayList<>();
        for (int i = 0; i < managers.size(); i++) {
            String[] own = managers.get(i).getServerAliases(keyType, issuers);
            for (String alias : own == null ? new String[0] : own) {
                aliases.add(prefixed(i, alias));
            }
        }
        return aliases.isEmpty() ? null : aliases.toArray(new String[0]);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        int colon = alias == null ? -1 : alias.indexOf(':');
        return colon < 0 ? null : managers.get(Integer.parseInt(alias.substring(0, colon)))
                .getCertificateChain(alias.substring(colon + 1));
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        int colon = alias == null ? -1 : alias.indexOf(':');
        return colon < 0 ? null : managers.get(Integer.parseInt(alias.substring(0, colon)))
                .getPrivateKey(alias.substring(colon + 1));
    }

    /** The server presents certificates; it never chooses one as a client. */
    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }

    private static String prefixed(int index, String alias) {
        return alias == null ? null : index + ":" + alias;
    }

    private static String requestedHost(SSLSession session) {
        if (session instanceof ExtendedSSLSession extended) {
            for (SNIServerName name : extended.getRequestedServerNames()) {
                if (name.getType() == StandardConstants.SNI_HOST_NAME) {
                    return new SNIHostName(name.getEncoded()).getAsciiName();
                }
            }
        }
        return null;
    }

    private static X509ExtendedKeyManager manager(ServingKeys keys) {
        try {
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(keys.store(), keys.password());
            for (KeyManager manager : factory.getKeyManagers()) {
                if (manager instanceof X509ExtendedKeyManager x509) {
                    return x509;
                }
            }
            throw new IllegalStateException("no X.509 key manager for " + keys.description());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot serve " + keys.description() + ": " + e.getMessage(), e);
        }
    }
}
