package io.kubelix.resource.certificates;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.RateLimitingQueue;
import io.kubelix.api.informer.ResourceEventHandler;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.informer.Workers;
import io.kubelix.api.registry.StatusStorage;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.request.RequestContext;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.function.Supplier;

/**
 * kube-controller-manager's {@code csrsigning} controller for the
 * {@code kubernetes.io/kube-apiserver-client} signer: once a request of that signer is approved
 * (and has not failed or been issued), it issues the client certificate with the
 * {@link SigningAuthority} and writes it to {@code status.certificate} through the {@code status}
 * subresource. A request the signer cannot accept (usages other than client auth, digital signature
 * and key encipherment, or no client auth) gets kube's {@code Failed} condition instead. Requests of
 * other signers are left to their signers.
 */
final class CSRSigningController {
    static final String NAME = "csrsigning-kube-apiserver-client";
    /** kube's sanity floor: twice the backdate. */
    static final Duration MIN_DURATION = Duration.ofMinutes(10);
    private static final Logger LOG = LoggerFactory.getLogger(CSRSigningController.class);

    private final SharedIndexInformer csrs;
    private final Supplier<StatusStorage> status;
    private final SigningAuthority ca;
    private final Duration certTTL;
    private final Clock clock;
    private final RateLimitingQueue<String> queue;
    private final ResourceEventHandlerRegistration registration;
    private final Workers workers;

    CSRSigningController(SharedInformerFactory informers, Supplier<StatusStorage> status, SigningAuthority ca,
                         Duration certTTL, Clock clock) {
        this.csrs = informers.forResource(CertificatesRESTStorageProvider.CSRS_V1);
        this.status = status;
        this.ca = ca;
        this.certTTL = certTTL;
        this.clock = clock;
        this.queue = informers.newRateLimitingQueue(NAME);
        this.registration = csrs.addEventHandler(new ResourceEventHandler() {
            @Override
            public void onAdd(ObjectNode obj, boolean isInInitialList) {
                queue.add(SharedIndexInformer.keyOf(obj));
            }

            @Override
            public void onUpdate(ObjectNode oldObj, ObjectNode newObj) {
                queue.add(SharedIndexInformer.keyOf(newObj));
            }

            @Override
            public void onDelete(ObjectNode obj) {
            }
        });
        this.workers = informers.runWorkers(NAME, queue, 1, this::sync);
        LOG.info("signing approved {} requests with the CA of {}, for at most {}", SignerNames.KUBE_APISERVER_CLIENT, ca,
                certTTL);
    }

    void stop() {
        registration.close();
        workers.stop();
    }

    /** kube's signer.handle for one request. */
    void sync(String name) throws Exception {
        JsonNode csr = csrs.getByKey(name);
        if (csr == null || !SignerNames.KUBE_APISERVER_CLIENT.equals(csr.path("spec").path("signerName").asText(""))
                || !CSRConditions.approved(csr) || CSRConditions.hasTrue(csr, CSRConditions.FAILED)
                || !csr.path("status").path("certificate").asText("").isEmpty()) {
            return;
        }
        StatusStorage store = status.get();
        if (store == null) {
            throw StatusException.serviceUnavailable("the certificatesigningrequests storage is not built yet");
        }
        PKCS10CertificationRequest request = PemBlocks.parseRequest(PemBlocks.bytes(csr.path("spec").get("request")));
        List<String> usages = CSRValidation.usages(csr);
        String refusal = clientUsagesRefusal(usages);
        String resourceVersion = csr.path("metadata").path("resourceVersion").asText();
        if (refusal != null) {
            LOG.info("certificatesigningrequest {} failed: {}", name, refusal);
            write(store, name, resourceVersion, s -> {
                ObjectNode failed = ((ArrayNode) s.withArrayProperty("conditions")).addObject();
                failed.put("type", CSRConditions.FAILED).put("status", "True").put("reason", "SignerValidationFailure")
                        .put("message", refusal)
                        .put("lastUpdateTime", clock.instant().truncatedTo(ChronoUnit.SECONDS).toString());
            });
            return;
        }
        JsonNode expiration = csr.path("spec").get("expirationSeconds");
        Duration ttl = duration(expiration == null || expiration.isNull() ? null : expiration.asLong(), certTTL);
        byte[] certificate = ca.sign(request, usages, ttl, clock.instant());
        write(store, name, resourceVersion, s -> s.put("certificate", Base64.getEncoder().encodeToString(certificate)));
        LOG.info("issued the certificate of certificatesigningrequest {} for \"{}\", valid for {}", name,
                request.getSubject(), ttl);
    }

    /** Writes the status, as it was at {@code resourceVersion}; a conflict is retried from the informer. */
    private void write(StatusStorage store, String name, String resourceVersion, java.util.function.Consumer<ObjectNode> change) {
        try {
            store.update(RequestContext.system(""), name, (ctx, current) -> {
                ObjectNode updated = current.deepCopy();
                ((ObjectNode) updated.get("metadata")).put("resourceVersion", resourceVersion);
                change.accept(updated.withObjectProperty("status"));
                return updated;
            }, UpdateOptions.DEFAULT);
        } catch (StatusException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }

    /**
     * kube's validAPIServerClientUsages: client auth is required; digital signature and key
     * encipherment may come with it; null when the usages are acceptable.
     */
    static String clientUsagesRefusal(List<String> usages) {
        boolean clientAuth = false;
        for (String u : usages) {
            switch (u) {
                case KeyUsages.DIGITAL_SIGNATURE, KeyUsages.KEY_ENCIPHERMENT -> { }
                case KeyUsages.CLIENT_AUTH -> clientAuth = true;
                default -> {
                    return "invalid usage for client certificate: " + u;
                }
            }
        }
        return clientAuth ? null : "missing required usage for client certificate: " + KeyUsages.CLIENT_AUTH;
    }

    /**
     * kube's signer.duration: the requested {@code expirationSeconds} when below the signer's
     * maximum, never less than ten minutes; the maximum when nothing is requested.
     */
    static Duration duration(Long expirationSeconds, Duration certTTL) {
        if (expirationSeconds == null) {
            return certTTL;
        }
        Duration requested = Duration.ofSeconds(expirationSeconds);
        if (requested.compareTo(certTTL) > 0) {
            return certTTL;
        }
        return requested.compareTo(MIN_DURATION) < 0 ? MIN_DURATION : requested;
    }
}
