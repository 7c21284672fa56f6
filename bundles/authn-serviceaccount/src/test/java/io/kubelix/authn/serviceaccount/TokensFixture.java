package io.kubelix.authn.serviceaccount;

import io.kubelix.api.authn.AuthenticationRequest;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

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

    JwtTokenAuthenticator authenticator() {
        return new JwtTokenAuthenticator(settings, keys, clock);
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
