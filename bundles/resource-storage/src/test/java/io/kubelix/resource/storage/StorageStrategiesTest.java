package io.kubelix.resource.storage;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

class StorageStrategiesTest {
    private static final RequestContext CTX = RequestContext.system("");
    private static final ObjectMapper MAPPER = new ObjectMapper().configure(JsonParser.Feature.ALLOW_SINGLE_QUOTES, true);

    static ObjectNode json(String json) {
        try {
            return (ObjectNode) MAPPER.readTree(json.replace('\'', '"'));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    private static <S extends RESTCreateStrategy> List<String> create(S strategy, ObjectNode obj) {
        strategy.prepareForCreate(CTX, obj);
        return strategy.validate(CTX, obj).stream().map(FieldError::message).toList();
    }

    private static List<String> update(RESTUpdateStrategy strategy, ObjectNode obj, ObjectNode old) {
        strategy.prepareForUpdate(CTX, obj, old);
        return strategy.validateUpdate(CTX, obj, old).stream().map(FieldError::message).toList();
    }

    private static List<Object> cells(List<TableColumn> columns, ObjectNode o) {
        return columns.stream().filter(c -> !c.isAge()).map(c -> c.cell().apply(o)).toList();
    }

    private static List<String> headers(List<TableColumn> columns) {
        return columns.stream().map(TableColumn::name).toList();
    }

    private static ObjectNode storageClass() {
        return json("{'apiVersion':'storage.k8s.io/v1','kind':'StorageClass','metadata':{'name':'fast'},"
                + "'provisioner':'example.com/ssd','parameters':{'type':'pd-ssd'}}");
    }

    @Test
    void storageClassDefaultsValidationAndImmutableFields() {
        StorageClassStrategy strategy = new StorageClassStrategy();
        ObjectNode sc = storageClass();
        assertEquals(List.of(), create(strategy, sc));
        assertEquals("Delete", sc.path("reclaimPolicy").asText());
        assertEquals("Immediate", sc.path("volumeBindingMode").asText());

        assertEquals(List.of("provisioner: Required value", "reclaimPolicy: Unsupported value: \"Recycle\": supported "
                        + "values: \"Delete\", \"Retain\"", "volumeBindingMode: Unsupported value: \"Later\": supported "
                        + "values: \"Immediate\", \"WaitForFirstConsumer\""),
                create(strategy, json("{'metadata':{'name':'x'},'reclaimPolicy':'Recycle','volumeBindingMode':'Later'}")));

        ObjectNode changed = sc.deepCopy().put("provisioner", "example.com/hdd").put("reclaimPolicy", "Retain")
                .put("volumeBindingMode", "WaitForFirstConsumer");
        changed.putObject("parameters").put("type", "pd-standard");
        assertEquals(List.of("parameters: Forbidden: updates to parameters are forbidden.",
                "provisioner: Forbidden: updates to provisioner are forbidden.",
                "reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.",
                "volumeBindingMode: Invalid value: \"WaitForFirstConsumer\": field is immutable"),
                update(strategy, changed, sc));
        assertEquals(List.of(), update(strategy, sc.deepCopy().put("allowVolumeExpansion", true), sc));
    }

    @Test
    void storageClassPrintsItsDefaultMarker() {
        ObjectNode sc = storageClass();
        new StorageClassStrategy().prepareForCreate(CTX, sc);
        List<TableColumn> columns = StoragePrinters.storageClassColumns();
        assertEquals(List.of("Name", "Provisioner", "ReclaimPolicy", "VolumeBindingMode", "AllowVolumeExpansion", "Age"),
                headers(columns));
        assertEquals(List.of("fast", "example.com/ssd", "Delete", "Immediate", false), cells(columns, sc));
        ((ObjectNode) sc.path("metadata")).putObject("annotations").put(StoragePrinters.DEFAULT_CLASS_ANNOTATION, "true");
        assertEquals("fast (default)", cells(columns, sc).get(0));
    }

    @Test
    void csiDriverDefaultsValidationPrintingAndImmutableFields() {
        CSIDriverStrategy strategy = new CSIDriverStrategy();
        ObjectNode d = json("{'metadata':{'name':'csi.example.com'},'spec':{'tokenRequests':[{'audience':'vault'}]}}");
        assertEquals(List.of(), create(strategy, d));
        assertEquals(json("{'attachRequired':true,'podInfoOnMount':false,'storageCapacity':false,"
                + "'fsGroupPolicy':'ReadWriteOnceWithFSType','volumeLifecycleModes':['Persistent'],"
                + "'requiresRepublish':false,'seLinuxMount':false,'tokenRequests':[{'audience':'vault'}]}"), d.path("spec"));

        assertEquals(List.of("spec.fsGroupPolicy: Unsupported value: \"Some\": supported values: \"File\", \"None\", "
                        + "\"ReadWriteOnceWithFSType\"",
                        "spec.tokenRequests[0].expirationSeconds: Invalid value: 60: may not specify a duration less than "
                                + "10 minutes",
                        "spec.tokenRequests[1].audience: Duplicate value: \"a\"",
                        "spec.volumeLifecycleModes: Unsupported value: \"Sometimes\": supported values: \"Persistent\", "
                                + "\"Ephemeral\""),
                create(strategy, json("{'metadata':{'name':'d'},'spec':{'fsGroupPolicy':'Some','volumeLifecycleModes':"
                        + "['Sometimes'],'tokenRequests':[{'audience':'a','expirationSeconds':60},{'audience':'a'}]}}")));

        ObjectNode changed = d.deepCopy();
        ((ObjectNode) changed.path("spec")).put("attachRequired", false).putArray("volumeLifecycleModes").add("Ephemeral");
        assertEquals(List.of("spec.attachedRequired: Invalid value: false: field is immutable",
                "spec.volumeLifecycleModes: Invalid value: []storage.VolumeLifecycleMode{\"Ephemeral\"}: field is immutable"),
                update(strategy, changed, d));

        List<TableColumn> columns = StoragePrinters.csiDriverColumns();
        assertEquals(List.of("Name", "AttachRequired", "PodInfoOnMount", "StorageCapacity", "TokenRequests",
                "RequiresRepublish", "Modes", "Age"), headers(columns));
        assertEquals(List.of("csi.example.com", true, false, false, "vault", false, "Persistent"), cells(columns, d));
    }

    @Test
    void csiNodeDriversAreValidatedAndCounted() {
        CSINodeStrategy strategy = new CSINodeStrategy();
        ObjectNode n = json("{'metadata':{'name':'node-1'},'spec':{'drivers':[{'name':'csi.example.com','nodeID':'n1',"
                + "'topologyKeys':['topology.example.com/zone']}]}}");
        assertEquals(List.of(), create(strategy, n));
        assertEquals(List.of("Name", "Drivers", "Age"), headers(StoragePrinters.csiNodeColumns()));
        assertEquals(List.of("node-1", 1L), cells(StoragePrinters.csiNodeColumns(), n));

        assertEquals(List.of("spec.drivers[1].nodeID: Required value", "spec.drivers[1].name: Duplicate value: "
                + "\"csi.example.com\""), create(strategy, json("{'metadata':{'name':'node-2'},'spec':{'drivers':["
                + "{'name':'csi.example.com','nodeID':'a'},{'name':'csi.example.com'}]}}")));

        ObjectNode moved = n.deepCopy();
        ((ObjectNode) moved.path("spec").path("drivers").get(0)).put("nodeID", "n2");
        assertEquals(1, update(strategy, moved, n).size());
        ObjectNode counted = n.deepCopy();
        ((ObjectNode) counted.path("spec").path("drivers").get(0)).putObject("allocatable").put("count", 8);
        assertEquals(List.of(), update(strategy, counted, n));
    }

    @Test
    void volumeAttachmentStatusIsItsSubresources() {
        VolumeAttachmentStrategy strategy = new VolumeAttachmentStrategy();
        ObjectNode va = json("{'metadata':{'name':'va-1'},'spec':{'attacher':'csi.example.com','nodeName':'node-1',"
                + "'source':{'persistentVolumeName':'pv-1'}},'status':{'attached':true}}");
        assertEquals(List.of(), create(strategy, va));
        assertEquals(json("{'attached':false}"), va.path("status"), "a new attachment starts unattached");

        assertEquals(List.of("spec.source: Required value: must specify exactly one of inlineVolumeSpec and "
                + "persistentVolumeName"), create(strategy, json("{'metadata':{'name':'v'},'spec':{'attacher':"
                + "'csi.example.com','nodeName':'node-1','source':{}}}")));

        ObjectNode moved = va.deepCopy();
        ((ObjectNode) moved.path("spec")).put("nodeName", "node-2");
        assertEquals(List.of("spec: Invalid value: storage.VolumeAttachmentSpec{Attacher:\"csi.example.com\", "
                + "Source:storage.VolumeAttachmentSource{PersistentVolumeName:\"pv-1\", "
                + "InlineVolumeSpec:(*core.PersistentVolumeSpec)(nil)}, NodeName:\"node-2\"}: field is immutable"),
                update(strategy, moved, va));

        ObjectNode attached = va.deepCopy();
        ((ObjectNode) attached.path("status")).put("attached", true);
        ((ObjectNode) attached.path("spec")).put("nodeName", "ignored");
        assertEquals(List.of(), update(new VolumeAttachmentStatusStrategy(), attached, va));
        assertEquals("node-1", attached.path("spec").path("nodeName").asText(), "status keeps the spec");
        assertEquals(List.of("va-1", "csi.example.com", "pv-1", "node-1", true),
                cells(StoragePrinters.volumeAttachmentColumns(), attached));

        ObjectNode main = attached.deepCopy();
        ((ObjectNode) main.path("status")).put("attached", false);
        strategy.prepareForUpdate(CTX, main, attached);
        assertEquals(true, main.path("status").path("attached").asBoolean(), "the main resource keeps the status");
    }

    @Test
    void resourcesAreClusterScopedWithKubesShortNamesAndSchemas() {
        List<StoreSpec> specs = List.of(StorageRESTStorageProvider.storageClassSpec(),
                StorageRESTStorageProvider.csiDriverSpec(), StorageRESTStorageProvider.csiNodeSpec(),
                StorageRESTStorageProvider.volumeAttachmentSpec());
        specs.forEach(s -> {
            assertFalse(s.namespaced(), s.kind());
            assertNotNull(s.schema(), s.kind());
        });
        assertEquals(List.of(List.of("sc"), List.of(), List.of(), List.of()), specs.stream().map(StoreSpec::shortNames).toList());
    }
}
