package io.kubelix.runtime.audit;

/** audit.Stage: the moments of a request at which an event is sent. */
public enum Stage {
    /** As soon as the audit filter has the request, before anything else handles it. */
    RequestReceived,
    /** Once the response's status and headers are sent, before its body: long-running requests only. */
    ResponseStarted,
    /** Once the response is complete. */
    ResponseComplete,
    /** When handling the request failed unexpectedly. */
    Panic
}
