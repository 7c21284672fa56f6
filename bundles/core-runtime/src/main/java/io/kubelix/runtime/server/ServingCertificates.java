package io.kubelix.runtime.server;

import io.kubelix.runtime.bootstrap.CertKeyFiles;
import io.kubelix.runtime.bootstrap.ServingKeys;
import io.kubelix.runtime.bootstrap.SniCertKey;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Everything HTTPS serves: the default certificate ({@code --tls-cert-file} or the data directory's),
 * for clients that send no SNI or one no other certificate names, and the {@code --tls-sni-cert-key}
 * certificates in the order their flags were given.
 */
record ServingCertificates(ServingKeys fallback, List<SniCertKey.Named> named) {

    ServingCertificates {
        named = List.copyOf(named);
    }

    /**
     * Reads every certificate: the default from {@code files} when given, else {@code generated}.
     *
     * @throws IllegalArgumentException naming the flag and file that are wrong
     */
    static ServingCertificates load(CertKeyFiles files, ServingKeys generated, List<SniCertKey> sni) {
        return new ServingCertificates(files == null ? generated : files.load(),
                sni.stream().map(SniCertKey::load).toList());
    }

    String description() {
        return fallback.description() + named.stream().map(n -> ", " + n.keys().description() + " for " + n.names())
                .collect(Collectors.joining());
    }
}
