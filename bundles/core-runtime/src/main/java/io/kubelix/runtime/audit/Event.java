package io.kubelix.runtime.audit;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.request.UserInfo;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One audit event ({@code audit.k8s.io/v1} Event) as sent at one stage of a request: a snapshot,
 * never changed after it is made, so a backend may write it later on another thread.
 *
 * @param level                    the level the request is audited at
 * @param auditID                  the request's unique id (its {@code Audit-ID} header)
 * @param stage                    the stage this event was sent at
 * @param requestURI               the request's path and query
 * @param verb                     the authorization verb ({@code get}, {@code list}, {@code watch}, ...; the
 *                                 lower-cased method for a non-resource request)
 * @param user                     the authenticated user, or null when authentication failed
 * @param impersonatedUser         the user the request acts as, or null
 * @param sourceIPs                X-Forwarded-For's addresses, X-Real-Ip's, then the connection's
 * @param userAgent                the User-Agent, cut at 1024 characters
 * @param objectRef                the object of a resource request, or null
 * @param responseStatus           the response's status, or null before it is known
 * @param requestObject            the request's object as JSON (Request level and above), or null
 * @param responseObject           the response's object as JSON (RequestResponse level), or null
 * @param requestReceivedTimestamp when the request arrived
 * @param stageTimestamp           when this stage was reached
 * @param annotations              what the authorizers and admission plugins noted
 */
public record Event(Level level, String auditID, Stage stage, String requestURI, String verb, UserInfo user,
                    UserInfo impersonatedUser, List<String> sourceIPs, String userAgent, ObjectReference objectRef,
                    ResponseStatus responseStatus, byte[] requestObject, byte[] responseObject,
                    Instant requestReceivedTimestamp, Instant stageTimestamp, Map<String, String> annotations) {

    /** audit.ObjectReference: fields left empty are not written. */
    public record ObjectReference(String resource, String namespace, String name, String uid, String apiGroup,
                                  String apiVersion, String resourceVersion, String subresource) {
        ObjectReference with(String namespace, String name, String uid, String resourceVersion) {
            return new ObjectReference(resource, namespace, name, uid, apiGroup, apiVersion, resourceVersion,
                    subresource);
        }
    }

    /**
     * The response's metav1.Status: its code, and for a response that was a Status (an error) its
     * status, message, reason and details.
     */
    public record ResponseStatus(String status, String message, String reason, JsonNode details, int code) {
        static ResponseStatus ofCode(int code) {
            return new ResponseStatus(null, null, null, null, code);
        }

        ResponseStatus withCode(int newCode) {
            return new ResponseStatus(status, message, reason, details, newCode);
        }
    }
}
