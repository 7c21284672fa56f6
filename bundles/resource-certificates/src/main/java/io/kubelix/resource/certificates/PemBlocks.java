package io.kubelix.resource.certificates;

import org.bouncycastle.asn1.pkcs.CertificationRequest;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.PKCSException;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.cert.CertificateException;
import java.security.spec.X509EncodedKeySpec;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The PEM of a CertificateSigningRequest's {@code spec.request} and {@code status.certificate}, read
 * as Go's {@code encoding/pem} and kube's certificates helpers read them ({@code ParseCSR} and the
 * certificate check of its validation). Failures are {@link IllegalArgumentException}s whose message
 * is what kube reports.
 */
final class PemBlocks {
    static final String CERTIFICATE_REQUEST = "CERTIFICATE REQUEST";
    static final String CERTIFICATE = "CERTIFICATE";
    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([^\\r\\n-]*)-----\\r?\\n(.*?)-----END \\1-----", Pattern.DOTALL);

    /** One block: its type, whether it has headers ({@code Key: value} lines), its bytes. */
    record Block(String type, boolean headers, byte[] bytes) {
    }

    private PemBlocks() {
    }

    /** The well-formed blocks of {@code pem}, in order; text around and between them is ignored. */
    static List<Block> decode(byte[] pem) {
        List<Block> blocks = new ArrayList<>();
        Matcher m = BLOCK.matcher(new String(pem, StandardCharsets.ISO_8859_1));
        while (m.find()) {
            String body = m.group(2);
            boolean headers = false;
            StringBuilder base64 = new StringBuilder();
            for (String line : body.split("\\r?\\n")) {
                if (line.contains(":")) {
                    headers = true;
                } else {
                    base64.append(line.strip());
                }
            }
            try {
                blocks.add(new Block(m.group(1), headers, Base64.getDecoder().decode(base64.toString())));
            } catch (IllegalArgumentException e) {
                // Go's pem.Decode skips a block whose body is not base64.
            }
        }
        return blocks;
    }

    /**
     * kube's ParseCSR followed by CheckSignature: the first PEM block is a {@code CERTIFICATE REQUEST}
     * that parses and whose signature verifies with its own public key.
     */
    static PKCS10CertificationRequest parseRequest(byte[] pem) {
        List<Block> blocks = decode(pem);
        if (blocks.isEmpty() || !blocks.get(0).type().equals(CERTIFICATE_REQUEST)) {
            throw new IllegalArgumentException("PEM block type must be " + CERTIFICATE_REQUEST);
        }
        PKCS10CertificationRequest request;
        try {
            request = new PKCS10CertificationRequest(CertificationRequest.getInstance(blocks.get(0).bytes()));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("x509: malformed certificate request");
        }
        try {
            if (!request.isSignatureValid(new JcaContentVerifierProviderBuilder().build(publicKey(request)))) {
                throw new IllegalArgumentException("x509: signature verification failure");
            }
        } catch (OperatorCreationException | PKCSException | GeneralSecurityException | RuntimeException e) {
            if (e instanceof IllegalArgumentException iae) {
                throw iae;
            }
            throw new IllegalArgumentException("x509: cannot verify signature: " + e.getMessage());
        }
        return request;
    }

    /**
     * The request's public key as a JDK key: the JDK's key factories know the algorithms by name, not
     * by the OID the request names them with.
     */
    static PublicKey publicKey(PKCS10CertificationRequest request) throws GeneralSecurityException {
        String oid = request.getSubjectPublicKeyInfo().getAlgorithm().getAlgorithm().getId();
        String algorithm = switch (oid) {
            case "1.2.840.10045.2.1" -> "EC";
            case "1.2.840.113549.1.1.1" -> "RSA";
            case "1.3.101.112" -> "Ed25519";
            default -> throw new GeneralSecurityException("unsupported public key algorithm " + oid);
        };
        try {
            return KeyFactory.getInstance(algorithm).generatePublic(
                    new X509EncodedKeySpec(request.getSubjectPublicKeyInfo().getEncoded()));
        } catch (java.io.IOException e) {
            throw new GeneralSecurityException(e);
        }
    }

    /**
     * kube's validateCertificate: empty, or only {@code CERTIFICATE} blocks without headers, at least
     * one, each holding a certificate.
     */
    static void checkCertificates(byte[] pem) {
        if (pem.length == 0) {
            return;
        }
        List<Block> blocks = decode(pem);
        for (Block b : blocks) {
            if (!b.type().equals(CERTIFICATE)) {
                throw new IllegalArgumentException("only CERTIFICATE PEM blocks are allowed, found \"" + b.type() + "\"");
            }
            if (b.headers()) {
                throw new IllegalArgumentException("no PEM block headers are permitted");
            }
            try {
                if (CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(b.bytes())).isEmpty()) {
                    throw new IllegalArgumentException("found CERTIFICATE PEM block containing 0 certificates");
                }
            } catch (CertificateException e) {
                throw new IllegalArgumentException("x509: malformed certificate");
            }
        }
        if (blocks.isEmpty()) {
            throw new IllegalArgumentException("must contain at least one CERTIFICATE PEM block");
        }
    }

    /** A {@code []byte} field of the API object (base64 in JSON); empty when unset or not base64. */
    static byte[] bytes(com.fasterxml.jackson.databind.JsonNode field) {
        if (field == null || field.isNull() || field.isMissingNode()) {
            return new byte[0];
        }
        try {
            return Base64.getDecoder().decode(field.asText(""));
        } catch (IllegalArgumentException e) {
            return new byte[0];
        }
    }

    /** PEM text of one block. */
    static String encode(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[]{'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
