package io.kubelix.admission.webhook;

/**
 * webhookutil.ErrCallingWebhook: the webhook could not be asked, or its answer could not be used.
 * Its {@code failurePolicy} decides: {@code Ignore} lets the request through, {@code Fail} answers
 * kube's 500 {@code failed calling webhook "<name>": <reason>}.
 */
final class CallingWebhookException extends Exception {
    private static final long serialVersionUID = 1L;
    private final String webhook;

    CallingWebhookException(String webhook, String reason) {
        super("failed calling webhook \"" + webhook + "\": " + reason);
        this.webhook = webhook;
    }

    String webhook() {
        return webhook;
    }
}
