package io.kubelix.resource.events;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

class EventsTest {
    private static final RequestContext CTX = RequestContext.system("default");
    private static final ObjectMapper MAPPER = new ObjectMapper().configure(JsonParser.Feature.ALLOW_SINGLE_QUOTES, true);
    private final EventConversion conversion = new EventConversion();
    private final EventStrategy strategy = new EventStrategy(conversion);

    static ObjectNode json(String json) {
        try {
            return (ObjectNode) MAPPER.readTree(json.replace('\'', '"'));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    /** An event as client-go's events.k8s.io recorder writes it. */
    private static ObjectNode event() {
        return json("{'apiVersion':'events.k8s.io/v1','kind':'Event','metadata':{'name':'web.1','namespace':'default'},"
                + "'eventTime':'2026-01-01T10:00:00.000000Z','reportingController':'example.com/deployer',"
                + "'reportingInstance':'deployer-1','action':'Scale','reason':'Scaled','regarding':{'kind':'Deployment',"
                + "'namespace':'default','name':'web'},'note':'scaled to 3','type':'Normal'}");
    }

    private List<String> messages(List<FieldError> errs) {
        return errs.stream().map(FieldError::message).toList();
    }

    @Test
    void convertsBetweenTheTwoShapesAsKubeDoes() {
        ObjectNode stored = conversion.toStorage(event());
        assertEquals(json("{'apiVersion':'v1','kind':'Event','metadata':{'name':'web.1','namespace':'default'},"
                + "'eventTime':'2026-01-01T10:00:00.000000Z','reportingComponent':'example.com/deployer',"
                + "'reportingInstance':'deployer-1','action':'Scale','reason':'Scaled','involvedObject':{'kind':"
                + "'Deployment','namespace':'default','name':'web'},'message':'scaled to 3','type':'Normal'}"), stored);
        assertEquals(event(), conversion.fromStorage(stored));

        ObjectNode legacy = json("{'apiVersion':'v1','kind':'Event','metadata':{'name':'p.1','namespace':'default'},"
                + "'involvedObject':{'kind':'Pod','name':'p'},'reason':'Pulled','message':'pulled','source':{'component':"
                + "'kubelet','host':'node-1'},'firstTimestamp':'2026-01-01T10:00:00Z','lastTimestamp':"
                + "'2026-01-01T10:05:00Z','count':3,'type':'Normal'}");
        ObjectNode seen = conversion.fromStorage(legacy);
        assertEquals(json("{'apiVersion':'events.k8s.io/v1','kind':'Event','metadata':{'name':'p.1','namespace':"
                + "'default'},'regarding':{'kind':'Pod','name':'p'},'reason':'Pulled','note':'pulled','deprecatedSource':"
                + "{'component':'kubelet','host':'node-1'},'deprecatedFirstTimestamp':'2026-01-01T10:00:00Z',"
                + "'deprecatedLastTimestamp':'2026-01-01T10:05:00Z','deprecatedCount':3,'type':'Normal','eventTime':null}"),
                seen);
    }

    @Test
    void createsAreHeldToKubesStrictRulesWithCoreFieldPaths() {
        assertEquals(List.of(), strategy.validate(CTX, event()));
        ObjectNode old = event().put("type", "Bad").put("deprecatedCount", 2).put("reportingController", "");
        old.remove(List.of("eventTime", "action"));
        old.putObject("deprecatedSource").put("component", "me");
        assertEquals(List.of("eventTime: Required value", "type: Invalid value: \"\": has invalid value: Bad",
                "count: Invalid value: \"\": needs to be unset", "source: Invalid value: \"\": needs to be unset"),
                messages(strategy.validate(CTX, old)));

        ObjectNode noController = event().put("reportingController", "").put("action", "");
        assertEquals(List.of("reportingController: Required value", "action: Required value"),
                messages(strategy.validate(CTX, noController)).stream().filter(m -> m.contains("Required")).toList());
        ObjectNode series = event();
        series.putObject("series").put("count", 1);
        assertEquals(List.of("series.count: Invalid value: \"\": should be at least 2",
                "series.lastObservedTime: Required value"), messages(strategy.validate(CTX, series)));
    }

    @Test
    void updatesMayOnlyChangeTheSeries() {
        ObjectNode old = event();
        ObjectNode next = old.deepCopy().put("note", "scaled to 4");
        next.putObject("series").put("count", 2).put("lastObservedTime", "2026-01-01T10:01:00.000000Z");
        assertEquals(List.of("message: Invalid value: \"scaled to 4\": field is immutable"),
                messages(strategy.validateUpdate(CTX, next, old)));
        next.put("note", "scaled to 3");
        assertEquals(List.of(), strategy.validateUpdate(CTX, next, old));
    }

    @Test
    void printsKubesEventTableFromTheEventsFields() {
        StoreSpec spec = EventsRESTStorageProvider.eventSpec();
        List<TableColumn> columns = spec.tableColumns();
        assertEquals(List.of("Last Seen", "Type", "Reason", "Object", "Subobject*", "Source*", "Message", "First Seen*",
                "Count*", "Name*"), columns.stream().map(c -> c.name() + (c.priority() > 0 ? "*" : "")).toList());
        ObjectNode e = event();
        List<Object> cells = columns.stream().map(c -> c.cell().apply(e)).toList();
        Instant time = Instant.parse("2026-01-01T10:00:00Z");
        assertEquals(List.of(time, "Normal", "Scaled", "deployment/web", "", "example.com/deployer, deployer-1",
                "scaled to 3", time, 1L, "web.1"), cells);

        ObjectNode legacy = conversion.fromStorage(json("{'metadata':{'name':'p.1'},'involvedObject':{'kind':'Pod'},"
                + "'count':5}"));
        assertEquals(EventPrinters.UNKNOWN, EventPrinters.lastSeen(legacy));
        assertEquals(5L, EventPrinters.count(legacy));
    }

    @Test
    void sharesTheCoreEventsStorageAndSelectsOnItsOwnFields() {
        StoreSpec spec = EventsRESTStorageProvider.eventSpec();
        assertEquals("/events", spec.resourcePrefix());
        assertNotNull(spec.storageConversion());
        assertNotNull(spec.schema());
        assertEquals(List.of("ev"), spec.shortNames());
        assertEquals("web", spec.selectableFields().get("regarding.name").apply(event()));
        assertEquals("example.com/deployer", spec.selectableFields().get("reportingController").apply(event()));
        assertEquals(List.of("reason", "reportingController", "type"), spec.selectableFields().keySet().stream()
                .filter(f -> !f.startsWith("regarding.")).sorted().toList());
    }
}
