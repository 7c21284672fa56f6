package io.kubelix.runtime.fieldmanager;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.ResourceSchema;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The merge mutating admission policies apply their ApplyConfigurations with, on a Deployment-shaped schema. */
class TypedMergeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ResourceSchema SCHEMA = load();
    private final TypedMerge merge = new TypedMerge();

    private static ObjectNode obj(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json.replace('\'', '"'));
    }

    @Test
    void mapListsMergeByKeyAndStructsFieldByField() throws Exception {
        ObjectNode live = obj("{'metadata':{'name':'web','labels':{'a':'1'}},'spec':{'replicas':1,'template':{'spec':"
                + "{'containers':[{'name':'app','image':'nginx','env':[{'name':'A','value':'1'}]},{'name':'side','image':'busybox'}]}}}}");
        ObjectNode config = obj("{'metadata':{'labels':{'b':'2'}},'spec':{'replicas':3,'template':{'spec':"
                + "{'containers':[{'name':'app','env':[{'name':'B','value':'2'}]},{'name':'new','image':'redis'}]}}}}");
        ObjectNode merged = merge.merge(SCHEMA, live, config);
        assertEquals(obj("{'metadata':{'name':'web','labels':{'a':'1','b':'2'}},'spec':{'replicas':3,'template':{'spec':"
                + "{'containers':[{'name':'app','image':'nginx','env':[{'name':'A','value':'1'},{'name':'B','value':'2'}]},"
                + "{'name':'side','image':'busybox'},{'name':'new','image':'redis'}]}}}}"), merged);
        assertEquals(obj("{'metadata':{'name':'web','labels':{'a':'1'}},'spec':{'replicas':1,'template':{'spec':"
                + "{'containers':[{'name':'app','image':'nginx','env':[{'name':'A','value':'1'}]},{'name':'side','image':'busybox'}]}}}}"),
                live, "the object is not changed");
    }

    @Test
    void atomicValuesAreReplacedAndReported() throws Exception {
        ObjectNode config = obj("{'spec':{'selector':{'matchLabels':{'x':'y'}},'template':{'spec':"
                + "{'nodeSelector':{'disk':'ssd'},'containers':[{'name':'app','args':['a']}]}}}}");
        assertEquals(List.of(".spec.selector", ".spec.template.spec.nodeSelector", ".spec.template.spec.containers[0].args"),
                merge.atomicPaths(SCHEMA, config));
        assertEquals(List.of(), merge.atomicPaths(SCHEMA, obj("{'metadata':{'labels':{'a':'b'}},'spec':{'replicas':2}}")));
        ObjectNode merged = merge.merge(SCHEMA, obj("{'spec':{'template':{'spec':{'containers':[{'name':'app','args':['x','y']}]}}}}"),
                obj("{'spec':{'template':{'spec':{'containers':[{'name':'app','args':['z']}]}}}}"));
        assertEquals(obj("{'spec':{'template':{'spec':{'containers':[{'name':'app','args':['z']}]}}}}"), merged);
    }

    @Test
    void configurationsThatDoNotFitTheSchemaAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> merge.merge(SCHEMA, obj("{'spec':{}}"), obj("{'spec':{'replicas':'three'}}")));
        assertEquals(".spec.replicas: expected numeric (int or float), got string", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> merge.merge(SCHEMA, obj("{}"),
                obj("{'spec':{'template':{'spec':{'containers':[{'name':'a'},{'name':'a'}]}}}}")));
    }

    private static ResourceSchema load() {
        try (InputStream in = TypedMergeTest.class.getResourceAsStream("/fieldmanager/schemas.json")) {
            return ResourceSchema.load(in, "test.v1.Deployment");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
