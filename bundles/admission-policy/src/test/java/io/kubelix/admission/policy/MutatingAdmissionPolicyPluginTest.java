package io.kubelix.admission.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.admission.ReinvocationContext;
import io.kubelix.api.request.UserInfo;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.api.schema.SchemaResolver;
import io.kubelix.api.schema.StructuredMergeDiff;
import io.kubelix.testing.informer.FakeInformerFactory;
import org.junit.jupiter.api.Test;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Mutating admission policies on configmaps: matching, both patch types, failure policies and reinvocation. */
class MutatingAdmissionPolicyPluginTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final GroupVersionResource CONFIGMAPS = new GroupVersionResource("", "v1", "configmaps");

    private final FakeInformerFactory informers = new FakeInformerFactory();
    private final MutatingAdmissionPolicyPlugin plugin = new MutatingAdmissionPolicyPlugin(informers, null, null,
            new NoSchemas(), new ObjectMerge());

    private static ObjectNode obj(String json) throws Exception {
        // single quotes are JSON's double quotes, backticks CEL's single quotes
        return (ObjectNode) JSON.readTree(json.replace('\'', '"').replace('`', '\''));
    }

    private void policy(String name, String failurePolicy, String reinvocation, String mutations) throws Exception {
        informers.forResource(MutatingAdmissionPolicyPlugin.POLICIES).put(obj("{'metadata':{'name':'" + name
                + "','resourceVersion':'1'},'spec':{'failurePolicy':'" + failurePolicy + "','reinvocationPolicy':'"
                + reinvocation + "','matchConstraints':{'resourceRules':[{'apiGroups':[''],'apiVersions':['v1'],"
                + "'operations':['CREATE','UPDATE'],'resources':['configmaps']}]},'mutations':" + mutations + "}}"));
        informers.forResource(MutatingAdmissionPolicyPlugin.BINDINGS).put(obj("{'metadata':{'name':'" + name
                + "-binding','resourceVersion':'1'},'spec':{'policyName':'" + name + "'}}"));
    }

    private static AdmissionAttributes create(ObjectNode cm) {
        return new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("", "v1", "ConfigMap"), CONFIGMAPS, "",
                "default", cm.path("metadata").path("name").asText(), cm, null, false, context(), null,
                new ReinvocationContext());
    }

    @Test
    void applyConfigurationsAndJsonPatchesMutateTheObjectInOrder() throws Exception {
        policy("a-labels", "Fail", "Never", "[{'patchType':'ApplyConfiguration','applyConfiguration':{'expression':"
                + "\"Object{metadata: Object.metadata{labels: {`team`: `db`}}}\"}}, {'patchType':'JSONPatch','jsonPatch':"
                + "{'expression':\"[JSONPatch{op: `add`, path: `/data/team`, value: object.metadata.labels.team}]\"}}]");
        ObjectNode cm = obj("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c','namespace':'default'},'data':{'x':'1'}}");
        AdmissionAttributes a = create(cm);
        plugin.admit(a);
        assertEquals(obj("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c','namespace':'default',"
                + "'labels':{'team':'db'}},'data':{'x':'1','team':'db'}}"), a.object());
        assertTrue(a.reinvocation().shouldReinvoke(), "a changed object asks for the second pass");
    }

    @Test
    void failuresRefuseUnderFailAndAreIgnoredUnderIgnore() throws Exception {
        policy("broken", "Fail", "Never", "[{'patchType':'JSONPatch','jsonPatch':{'expression':"
                + "\"[JSONPatch{op: `add`, path: `/data/x`, value: object.data.nope}]\"}}]");
        ObjectNode cm = obj("{'metadata':{'name':'c'},'data':{'x':'1'}}");
        StatusException e = assertThrows(StatusException.class, () -> plugin.admit(create(cm)));
        assertEquals("policy 'broken' with binding 'broken-binding' denied request: expression "
                + "'[JSONPatch{op: 'add', path: '/data/x', value: object.data.nope}]' resulted in error: no such key: nope",
                e.getMessage());
        assertEquals(403, e.code());

        // the same policy, now ignoring failures (a new resourceVersion, so it is compiled again)
        informers.forResource(MutatingAdmissionPolicyPlugin.POLICIES).put(obj("{'metadata':{'name':'broken',"
                + "'resourceVersion':'2'},'spec':{'failurePolicy':'Ignore','reinvocationPolicy':'Never','matchConstraints':"
                + "{'resourceRules':[{'apiGroups':[''],'apiVersions':['v1'],'operations':['CREATE'],'resources':['configmaps']}]},"
                + "'mutations':[{'patchType':'JSONPatch','jsonPatch':{'expression':\"[JSONPatch{op: `add`, path: `/data/x`, "
                + "value: object.data.nope}]\"}}]}}"));
        AdmissionAttributes a = create(cm);
        plugin.admit(a);
        assertEquals(obj("{'metadata':{'name':'c'},'data':{'x':'1'}}"), a.object());
    }

    @Test
    void expressionsOfTheWrongTypeFailAsCompileErrors() throws Exception {
        policy("wrong", "Fail", "Never", "[{'patchType':'ApplyConfiguration','applyConfiguration':{'expression':"
                + "\"{`metadata`: {}}\"}}]");
        StatusException e = assertThrows(StatusException.class, () -> plugin.admit(create(obj("{'metadata':{'name':'c'}}"))));
        assertEquals("policy 'wrong' with binding 'wrong-binding' denied request: must evaluate to Object", e.getMessage());
    }

    @Test
    void matchConditionsSkipThePolicy() throws Exception {
        informers.forResource(MutatingAdmissionPolicyPlugin.POLICIES).put(obj("{'metadata':{'name':'only-labelled',"
                + "'resourceVersion':'1'},'spec':{'failurePolicy':'Fail','reinvocationPolicy':'Never','matchConstraints':"
                + "{'resourceRules':[{'apiGroups':[''],'apiVersions':['v1'],'operations':['CREATE'],'resources':['configmaps']}]},"
                + "'matchConditions':[{'name':'labelled','expression':\"has(object.metadata.labels)\"}],"
                + "'variables':[{'name':'suffix','expression':\"`-seen`\"}],"
                + "'mutations':[{'patchType':'JSONPatch','jsonPatch':{'expression':\"[JSONPatch{op: `add`, "
                + "path: `/data/seen`, value: object.metadata.name + variables.suffix}]\"}}]}}"));
        informers.forResource(MutatingAdmissionPolicyPlugin.BINDINGS).put(obj("{'metadata':{'name':'b',"
                + "'resourceVersion':'1'},'spec':{'policyName':'only-labelled'}}"));
        AdmissionAttributes plain = create(obj("{'metadata':{'name':'c'},'data':{}}"));
        plugin.admit(plain);
        assertFalse(plain.object().path("data").has("seen"));
        AdmissionAttributes labelled = create(obj("{'metadata':{'name':'c','labels':{'a':'b'}},'data':{}}"));
        plugin.admit(labelled);
        assertEquals("c-seen", labelled.object().path("data").path("seen").asText());
    }

    @Test
    void anIfNeededPolicyRunsAgainWhenALaterOneChangedTheObject() throws Exception {
        // a-count counts the keys it sees; b-add (after it by name) adds one, so a-count is due again
        policy("a-count", "Fail", "IfNeeded", "[{'patchType':'ApplyConfiguration','applyConfiguration':{'expression':"
                + "\"Object{metadata: Object.metadata{annotations: {`keys`: string(object.data.size())}}}\"}}]");
        policy("b-add", "Fail", "Never", "[{'patchType':'JSONPatch','jsonPatch':{'expression':"
                + "\"has(object.data.added) ? [] : [JSONPatch{op: `add`, path: `/data/added`, value: `yes`}]\"}}]");
        AdmissionAttributes a = create(obj("{'metadata':{'name':'c'},'data':{'x':'1'}}"));
        plugin.admit(a);
        assertEquals("1", a.object().path("metadata").path("annotations").path("keys").asText());
        assertTrue(a.reinvocation().shouldReinvoke());
        a.reinvocation().setIsReinvoke();
        plugin.admit(a);
        assertEquals("2", a.object().path("metadata").path("annotations").path("keys").asText());
    }

    /** No schemas: the stand-in merge below needs none. */
    private static final class NoSchemas implements SchemaResolver {
        @Override
        public GroupVersionKind kindFor(GroupVersionResource resource) {
            return null;
        }

        @Override
        public ResourceSchema resolveSchema(GroupVersionKind kind) {
            return null;
        }
    }

    /** Objects merged field by field, anything else replaced: core-runtime's merge for an object without a schema. */
    private static final class ObjectMerge implements StructuredMergeDiff {
        @Override
        public ObjectNode merge(ResourceSchema schema, ObjectNode object, ObjectNode configuration) {
            ObjectNode out = object.deepCopy();
            for (Iterator<Map.Entry<String, JsonNode>> it = configuration.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                out.set(e.getKey(), e.getValue().isObject() && out.get(e.getKey()) instanceof ObjectNode o
                        ? merge(null, o, (ObjectNode) e.getValue()) : e.getValue().deepCopy());
            }
            return out;
        }

        @Override
        public List<String> atomicPaths(ResourceSchema schema, ObjectNode configuration) {
            return List.of();
        }
    }

    private static RequestContext context() {
        UserInfo jane = new UserInfo("jane", "42", List.of("system:authenticated"), Map.of());
        return new RequestContext() {
            @Override
            public UserInfo user() {
                return jane;
            }

            @Override
            public RequestInfo requestInfo() {
                return null;
            }

            @Override
            public String namespace() {
                return "default";
            }

            @Override
            public void addWarning(String message) {
            }
        };
    }
}
