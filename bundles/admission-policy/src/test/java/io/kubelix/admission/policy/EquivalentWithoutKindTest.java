package io.kubelix.admission.policy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.EquivalentResourceMapper;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.testing.informer.FakeInformerFactory;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A policy or binding matching a request only through an equivalent resource that serves no kind is a
 * configuration error, which the policy's failurePolicy decides, as kube's dispatcher's addConfigError.
 */
class EquivalentWithoutKindTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final GroupVersionResource V1 = new GroupVersionResource("example.com", "v1", "widgets");
    private static final GroupVersionResource V2 = new GroupVersionResource("example.com", "v2", "widgets");
    private static final String V2_RULES = "{'matchPolicy':'Equivalent','resourceRules':[{'operations':['CREATE'],"
            + "'apiGroups':['example.com'],'apiVersions':['v2'],'resources':['widgets']}]}";

    /** v1 and v2 widgets are equivalent, but v2 serves no kind. */
    private static final EquivalentResourceMapper NO_V2_KIND = new EquivalentResourceMapper() {
        @Override
        public List<GroupVersionResource> equivalentResourcesFor(GroupVersionResource resource, String subresource) {
            return List.of(V1, V2);
        }

        @Override
        public GroupVersionKind kindFor(GroupVersionResource resource, String subresource) {
            return resource.equals(V1) ? new GroupVersionKind("example.com", "v1", "Widget") : null;
        }

        @Override
        public ObjectNode convert(ObjectNode obj, GroupVersionResource from, GroupVersionResource to, String subresource) {
            return obj.deepCopy();
        }
    };

    private static ObjectNode json(String s) throws Exception {
        return (ObjectNode) JSON.readTree(s.replace('\'', '"'));
    }

    private static ValidatingAdmissionPolicyPlugin plugin(String failurePolicy, String policyMatch, String bindingMatch)
            throws Exception {
        FakeInformerFactory informers = new FakeInformerFactory();
        informers.forResource(ValidatingAdmissionPolicyPlugin.POLICIES).put(json("{'metadata':{'name':'p'},'spec':{"
                + "'failurePolicy':'" + failurePolicy + "','matchConstraints':" + policyMatch
                + ",'validations':[{'expression':'true'}]}}"));
        informers.forResource(ValidatingAdmissionPolicyPlugin.BINDINGS).put(json("{'metadata':{'name':'b'},'spec':{"
                + "'policyName':'p','validationActions':['Deny']" + (bindingMatch == null ? "" : ",'matchResources':"
                + bindingMatch) + "}}"));
        return new ValidatingAdmissionPolicyPlugin(informers, null, NO_V2_KIND);
    }

    private static AdmissionAttributes createV1() throws Exception {
        return new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("example.com", "v1", "Widget"), V1, "",
                "default", "w", json("{'metadata':{'name':'w'}}"), null, false, RequestContext.system("default"));
    }

    @Test
    void aPolicyFailingClosedDeniesWithKubesConfigurationError() throws Exception {
        StatusException e = assertThrows(StatusException.class,
                () -> plugin("Fail", V2_RULES, null).validate(createV1()));
        assertEquals(422, e.code());
        assertEquals("widgets.example.com \"w\" is forbidden: ValidatingAdmissionPolicy 'p' denied request: failed to "
                + "configure policy: unable to convert to example.com/v2, Resource=widgets: unknown kind", e.getMessage());
    }

    @Test
    void aBindingFailingClosedDeniesNamingTheBinding() throws Exception {
        String all = "{'resourceRules':[{'operations':['*'],'apiGroups':['*'],'apiVersions':['*'],'resources':['*']}]}";
        StatusException e = assertThrows(StatusException.class,
                () -> plugin("Fail", all, V2_RULES).validate(createV1()));
        assertEquals("widgets.example.com \"w\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied "
                + "request: failed to configure binding: unable to convert to example.com/v2, Resource=widgets: unknown kind",
                e.getMessage());
    }

    @Test
    void aPolicyFailingOpenLetsTheRequestThrough() throws Exception {
        ValidatingAdmissionPolicyPlugin plugin = plugin("Ignore", V2_RULES, null);
        assertDoesNotThrow(() -> plugin.validate(createV1()));
    }
}
