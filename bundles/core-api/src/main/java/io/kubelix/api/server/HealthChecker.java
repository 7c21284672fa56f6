package io.kubelix.api.server;

/**
 * A named health check (healthz.HealthChecker), registered as a whiteboard service. The service
 * property {@link #ENDPOINTS_PROPERTY} says where it counts: {@code livez}, {@code readyz} or both
 * (the default); {@code /healthz} runs them all.
 */
public interface HealthChecker {
    String ENDPOINTS_PROPERTY = "kubelix.health.endpoints";

    /** The check's name as shown by {@code ?verbose} and addressed by {@code /readyz/<name>}. */
    String name();

    /** Passes by returning; fails by throwing, with a message saying why. */
    void check() throws Exception;
}
