package io.kubelix.authn.serviceaccount;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.authn.AuthenticationRequest;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** An issuer and authenticator over a key generated in a temporary data directory, at a settable time. */
final class TokensFixture {
    static final String ISSUER = ServiceAccountSettings.DEFAULT_ISSUER;

    final ServiceAccountSettings settings;
    final SigningKeys keys;
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    };

    TokensFixture(Path dataDir, Duration maxExpiration) {
        this(new ServiceAccountSettings(ISSUER, null, null, dataDir, maxExpiration));
    }

    TokensFixture(ServiceAccountSettings settings) {
        this.settings = settings;
        this.keys = SigningKeys.load(settings);
    }

    JwtTokenIssuer issuer() {
        return new JwtTokenIssuer(settings, keys, clock);
    }

    /** The objects tokens name, as the authenticator finds them: at first the service account team/bot and its pod web-0. */
    final Objects objects = new Objects();

    JwtTokenAuthenticator authenticator() {
        return new JwtTokenAuthenticator(settings, keys, clock, objects);
    }

    /** A getter over objects the test puts and removes, keyed by kind, namespace and name. */
    static final class Objects implements ServiceAccountTokenGetter {
        private final Map<String, ObjectNode> objects = new HashMap<>();

        Objects() {
            put("ServiceAccount", "team", "bot", "uid-bot");
            put("Pod", "team", "web-0", "uid-pod");
        }

        /** Stores an object of {@code kind} with {@code uid}; returns it, for changes. */
        ObjectNode put(String kind, String namespace, String name, String uid) {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            o.putObject("metadata").put("name", name).put("namespace", namespace).put("uid", uid);
            objects.put(kind + "/" + namespace + "/" + name, o);
            return o;
        }

        void remove(String kind, String namespace, String name) {
            objects.remove(kind + "/" + namespace + "/" + name);
        }

        private Optional<ObjectNode> get(String kind, String namespace, String name) {
            return Optional.ofNullable(objects.get(kind + "/" + namespace + "/" + name));
        }

        @Override
        public Optional<ObjectNode> serviceAccount(String namespace, String name) {
            return get("ServiceAccount", namespace, name);
        }

        @Override
        public Optional<ObjectNode> pod(String namespace, String name) {
            return get("Pod", namespace, name);
        }

        @Override
        public Optional<ObjectNode> secret(String namespace, String name) {
            return get("Secret", namespace, name);
        }

        @Override
        public Optional<ObjectNode> node(String name) {
            return get("Node", "", name);
        }
    }

    static AuthenticationRequest bearer(String token) {
        return request("Bearer " + token);
    }

    static AuthenticationRequest request(String authorization) {
        return new AuthenticationRequest() {
            @Override
            public String header(String name) {
                return name.equalsIgnoreCase("Authorization") ? authorization : null;
            }

            @Override
            public List<X509Certificate> peerCertificates() {
                return List.of();
            }

            @Override
            public String remoteAddress() {
                return "127.0.0.1:1234";
            }
        };
    }
}
