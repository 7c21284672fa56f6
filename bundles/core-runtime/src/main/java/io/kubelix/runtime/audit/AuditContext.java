package io.kubelix.runtime.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.runtime.codec.Codecs;
import io.kubelix.runtime.endpoints.responsewriters.StatusObjects;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One audited request's event as it grows (kube's AuditContext): the audit filter creates it with
 * who and what, the authorizer adds its decision, impersonation the user acted as, the handlers
 * the request's and response's objects, and each stage sends a snapshot of it. Anything may call
 * the {@code log} methods on a request that is not audited: they do nothing.
 */
public final class AuditContext {
    private static final Logger LOG = LoggerFactory.getLogger(AuditContext.class);
    private static final String ATTRIBUTE = "io.kubelix.audit";

    private static final int MAX_USER_AGENT_LENGTH = 1024;

    private final AuditOptions.Audit audit;
    private final Level level;
    private final Set<Stage> omitStages;
    private final boolean omitManagedFields;
    private final String auditID;
    private final String requestURI;
    private final String verb;
    private final UserInfo user;
    private final List<String> sourceIPs;
    private final String userAgent;
    private final Instant received;

    private Event.ObjectReference objectRef;
    private UserInfo impersonatedUser;
    private Event.ResponseStatus responseStatus;
    private byte[] requestObject;
    private byte[] responseObject;
    private Map<String, String> annotations;

    AuditContext(AuditOptions.Audit audit, PolicyRuleEvaluator.RequestAuditConfig config, String auditID, String requestURI, String verb,
                 UserInfo user, List<String> sourceIPs, String userAgent, Event.ObjectReference objectRef,
                 Instant received) {
        this.audit = audit;
        this.level = config.level();
        this.omitStages = config.omitStages();
        this.omitManagedFields = config.omitManagedFields();
        this.auditID = auditID;
        this.requestURI = requestURI;
        this.verb = verb;
        this.user = user;
        this.sourceIPs = List.copyOf(sourceIPs);
        this.userAgent = userAgent;
        this.objectRef = objectRef;
        this.received = received;
    }

    /**
     * Evaluates the policy for a request and, when it is to be audited, attaches the context of its
     * event (evaluatePolicyAndCreateAuditEvent).
     *
     * @param user the authenticated user, or null when authentication failed
     * @return the context, or null when the policy says {@link Level#None}
     */
    public static AuditContext start(Request request, AuditOptions.Audit audit, String auditID, UserInfo user,
                                     RequestInfo info) {
        PolicyRuleEvaluator.RequestAuditConfig config = audit.evaluator().evaluate(user, info);
        audit.metrics().policyLevel(config.level().name());
        if (config.level() == Level.None) {
            return null;
        }
        long sinceBegin = System.nanoTime() - request.getBeginNanoTime();
        Instant now = Instant.now();
        Instant received = sinceBegin > 0 ? now.minusNanos(sinceBegin) : now;
        String userAgent = request.getHeaders().get(HttpHeader.USER_AGENT);
        if (userAgent == null) {
            userAgent = "";
        } else if (userAgent.length() > MAX_USER_AGENT_LENGTH) {
            userAgent = userAgent.substring(0, MAX_USER_AGENT_LENGTH) + "...TRUNCATED";
        }
        Event.ObjectReference ref = info.resourceRequest()
                ? new Event.ObjectReference(info.resource(), info.namespace(), info.name(), "", info.apiGroup(),
                        info.apiVersion(), "", info.subresource())
                : null;
        AuditContext ac = new AuditContext(audit, config, auditID == null ? "" : auditID,
                request.getHttpURI().getPathQuery(), info.verb(), user, SourceIPs.of(request), userAgent, ref,
                received);
        request.setAttribute(ATTRIBUTE, ac);
        return ac;
    }

    /**
     * processAuditEvent: sends the event as it stands at {@code stage}, unless the policy omits
     * the stage.
     *
     * @return false when the backend could not record it and wants the request refused
     */
    public boolean send(Stage stage) {
        if (omitStages.contains(stage)) {
            return true;
        }
        Event ev = event(stage, stage == Stage.RequestReceived ? received : Instant.now());
        audit.metrics().event();
        return audit.backend().processEvents(List.of(ev));
    }

    /** A long-running request's status was sent. */
    public void responseStarted(int code) {
        setResponseCode(code);
        send(Stage.ResponseStarted);
    }

    /** A long-running request ended without sending a status: kube's "Connection closed early". */
    public void responseStartedEarlyEnd(int code) {
        synchronized (this) {
            if (responseStatus == null) {
                responseStatus = new Event.ResponseStatus("Success", "Connection closed early", null, null, code);
            }
        }
        send(Stage.ResponseStarted);
    }

    /** The response is done. */
    public void responseComplete(int code) {
        setResponseCode(code);
        send(Stage.ResponseComplete);
    }

    /** Handling failed unexpectedly: the Panic stage, with kube's 500 status. */
    public void panicked(Throwable t) {
        setResponseStatus(new Event.ResponseStatus("Failure", "APIServer panic'd: " + t, "InternalError", null, 500));
        send(Stage.Panic);
    }

    /** Authentication failed: one ResponseStarted event with the 401 Status. */
    public void failedAuthentication(io.kubelix.api.errors.StatusException unauthorized) {
        logResponseObject(this, StatusObjects.failure(unauthorized), null);
        setResponseCode(unauthorized.code());
        send(Stage.ResponseStarted);
    }

    /** The request's audit context, or null when it is not audited. */
    public static AuditContext of(Request request) {
        return (AuditContext) request.getAttribute(ATTRIBUTE);
    }

    public Level level() {
        return level;
    }

    public String auditID() {
        return auditID;
    }

    /** AddAuditAnnotation: a key already set keeps its first value, as kube keeps it. */
    public static void addAnnotation(Request request, String key, String value) {
        AuditContext ac = of(request);
        if (ac != null) {
            ac.addAnnotation(key, value);
        }
    }

    synchronized void addAnnotation(String key, String value) {
        if (annotations == null) {
            annotations = new LinkedHashMap<>();
        }
        String old = annotations.putIfAbsent(key, value);
        if (old != null && !old.equals(value)) {
            LOG.warn("Failed to set annotations[\"{}\"] to \"{}\" for audit:\"{}\", it has already been set to \"{}\"",
                    key, value, auditID, old);
        }
    }

    /** LogImpersonatedUser: the user the request acts as. */
    public static void logImpersonatedUser(Request request, UserInfo impersonated) {
        AuditContext ac = of(request);
        if (ac != null) {
            synchronized (ac) {
                ac.impersonatedUser = impersonated;
            }
        }
    }

    /**
     * LogRequestObject: the object a create or update sent. Its namespace, name, uid and
     * resourceVersion fill the object reference's empty fields; at the Request level and above it
     * is recorded, encoded now, as the handler goes on to change it.
     */
    public static void logRequestObject(Request request, JsonNode obj) {
        AuditContext ac = of(request);
        if (ac == null) {
            return;
        }
        byte[] json = ac.level.less(Level.Request) ? null : Codecs.toJson(ac.withoutManagedFields(obj));
        JsonNode meta = obj.path("metadata");
        synchronized (ac) {
            if (ac.objectRef != null) {
                Event.ObjectReference r = ac.objectRef;
                ac.objectRef = r.with(or(r.namespace(), meta.path("namespace").asText("")),
                        or(r.name(), meta.path("name").asText("")), or(r.uid(), meta.path("uid").asText("")),
                        or(r.resourceVersion(), meta.path("resourceVersion").asText("")));
            }
            if (json != null) {
                ac.requestObject = json;
            }
        }
    }

    /** LogRequestPatch: a patch's body, at the Request level and above. */
    public static void logRequestPatch(Request request, JsonNode patch) {
        AuditContext ac = of(request);
        if (ac == null || ac.level.less(Level.Request)) {
            return;
        }
        byte[] json = Codecs.toJson(patch);
        synchronized (ac) {
            ac.requestObject = json;
        }
    }

    /**
     * LogResponseObject: a response that is a Status gives the event's response status; at the
     * RequestResponse level the object is recorded.
     *
     * @param json the object's JSON encoding when the response already has it, else null
     */
    public static void logResponseObject(Request request, JsonNode obj, byte[] json) {
        AuditContext ac = of(request);
        if (ac != null) {
            logResponseObject(ac, obj, json);
        }
    }

    private static void logResponseObject(AuditContext ac, JsonNode obj, byte[] json) {
        Event.ResponseStatus status = null;
        if ("Status".equals(obj.path("kind").asText()) && "v1".equals(obj.path("apiVersion").asText())) {
            JsonNode details = obj.get("details");
            status = new Event.ResponseStatus(obj.path("status").asText(""), obj.path("message").asText(""),
                    obj.path("reason").asText(""), details == null ? null : details.deepCopy(),
                    obj.path("code").asInt(0));
        }
        byte[] recorded = null;
        if (!ac.level.less(Level.RequestResponse)) {
            recorded = json != null && !(ac.omitManagedFields && hasManagedFields(obj)) ? json
                    : Codecs.toJson(ac.withoutManagedFields(obj));
        }
        synchronized (ac) {
            if (status != null) {
                ac.responseStatus = status;
            }
            if (recorded != null) {
                ac.responseObject = recorded;
            }
        }
    }

    /** A response already encoded as JSON (a list from the watch cache): recorded at the RequestResponse level. */
    public static void logResponseJson(Request request, java.util.function.Supplier<byte[]> json) {
        AuditContext ac = of(request);
        if (ac == null || ac.level.less(Level.RequestResponse)) {
            return;
        }
        byte[] bytes = json.get();
        if (ac.omitManagedFields) {
            bytes = Codecs.toJson(ac.withoutManagedFields(Codecs.decode(bytes, false)));
        }
        synchronized (ac) {
            ac.responseObject = bytes;
        }
    }

    /** The response's code, kept with the Status a failure logged. */
    synchronized void setResponseCode(int code) {
        responseStatus = responseStatus == null ? Event.ResponseStatus.ofCode(code) : responseStatus.withCode(code);
    }

    synchronized void setResponseStatus(Event.ResponseStatus status) {
        responseStatus = status;
    }


    /** The event as it stands, sent at {@code stage}. */
    synchronized Event event(Stage stage, Instant stageTimestamp) {
        return new Event(level, auditID, stage, requestURI, verb, user, impersonatedUser, sourceIPs, userAgent,
                objectRef, responseStatus, requestObject, responseObject, received, stageTimestamp,
                annotations == null ? Map.of() : Map.copyOf(annotations));
    }

    /** The object, or a copy without managed fields when the policy omits them (lists' items and Tables' rows too). */
    private JsonNode withoutManagedFields(JsonNode obj) {
        if (!omitManagedFields || !hasManagedFields(obj)) {
            return obj;
        }
        JsonNode copy = obj.deepCopy();
        strip(copy);
        if (copy.path("items") instanceof ArrayNode items) {
            items.forEach(AuditContext::strip);
        }
        if (copy.path("rows") instanceof ArrayNode rows) {
            rows.forEach(row -> strip(row.path("object")));
        }
        return copy;
    }

    private static boolean hasManagedFields(JsonNode obj) {
        if (obj.path("metadata").has("managedFields")) {
            return true;
        }
        for (JsonNode item : obj.path("items")) {
            if (item.path("metadata").has("managedFields")) {
                return true;
            }
        }
        for (JsonNode row : obj.path("rows")) {
            if (row.path("object").path("metadata").has("managedFields")) {
                return true;
            }
        }
        return false;
    }

    private static void strip(JsonNode obj) {
        if (obj.path("metadata") instanceof ObjectNode meta) {
            meta.remove("managedFields");
        }
    }

    private static String or(String value, String fallback) {
        return value.isEmpty() ? fallback : value;
    }
}
