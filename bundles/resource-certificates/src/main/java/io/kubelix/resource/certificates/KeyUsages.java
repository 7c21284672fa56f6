package io.kubelix.resource.certificates;

import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The {@code spec.usages} a CertificateSigningRequest may name (kube's KeyUsage constants), and the
 * key usage bits and extended key usages each stands for in an issued certificate, as kube's
 * signing policy maps them.
 */
final class KeyUsages {
    static final String CLIENT_AUTH = "client auth";
    static final String DIGITAL_SIGNATURE = "digital signature";
    static final String KEY_ENCIPHERMENT = "key encipherment";

    static final Map<String, Integer> KEY_USAGE = Map.of(
            "signing", KeyUsage.digitalSignature,
            DIGITAL_SIGNATURE, KeyUsage.digitalSignature,
            "content commitment", KeyUsage.nonRepudiation,
            KEY_ENCIPHERMENT, KeyUsage.keyEncipherment,
            "key agreement", KeyUsage.keyAgreement,
            "data encipherment", KeyUsage.dataEncipherment,
            "cert sign", KeyUsage.keyCertSign,
            "crl sign", KeyUsage.cRLSign,
            "encipher only", KeyUsage.encipherOnly,
            "decipher only", KeyUsage.decipherOnly);

    static final Map<String, KeyPurposeId> EXT_KEY_USAGE = Map.ofEntries(
            Map.entry("any", KeyPurposeId.anyExtendedKeyUsage),
            Map.entry("server auth", KeyPurposeId.id_kp_serverAuth),
            Map.entry(CLIENT_AUTH, KeyPurposeId.id_kp_clientAuth),
            Map.entry("code signing", KeyPurposeId.id_kp_codeSigning),
            Map.entry("email protection", KeyPurposeId.id_kp_emailProtection),
            Map.entry("s/mime", KeyPurposeId.id_kp_emailProtection),
            Map.entry("ipsec end system", KeyPurposeId.id_kp_ipsecEndSystem),
            Map.entry("ipsec tunnel", KeyPurposeId.id_kp_ipsecTunnel),
            Map.entry("ipsec user", KeyPurposeId.id_kp_ipsecUser),
            Map.entry("timestamping", KeyPurposeId.id_kp_timeStamping),
            Map.entry("ocsp signing", KeyPurposeId.id_kp_OCSPSigning),
            Map.entry("microsoft sgc", KeyPurposeId.getInstance(new ASN1ObjectIdentifier("1.3.6.1.4.1.311.10.3.3"))),
            Map.entry("netscape sgc", KeyPurposeId.getInstance(new ASN1ObjectIdentifier("2.16.840.1.113730.4.1"))));

    /** Every usage kube accepts, sorted as its NotSupported message lists them. */
    static final List<String> ALL = List.copyOf(union());

    private KeyUsages() {
    }

    private static TreeSet<String> union() {
        TreeSet<String> all = new TreeSet<>(KEY_USAGE.keySet());
        all.addAll(EXT_KEY_USAGE.keySet());
        return all;
    }
}
