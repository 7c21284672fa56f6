package io.kubelix.apiextensions.schema;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Validation, pruning and defaulting of custom objects by a structural schema, with kube's paths and messages. */
class SchemaValidatorTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode json(String s) throws Exception {
        return (ObjectNode) JSON.readTree(s.replace('\'', '"'));
    }

    private static final String SCHEMA = "{'type':'object','properties':{'spec':{'type':'object','required':['image'],"
            + "'properties':{'image':{'type':'string','minLength':2,'maxLength':10},'replicas':{'type':'integer','minimum':1,"
            + "'maximum':10,'default':1},'color':{'type':'string','enum':['red','green']},'port':{'x-kubernetes-int-or-string':true},"
            + "'email':{'type':'string','format':'email'},'tags':{'type':'array','maxItems':2,'x-kubernetes-list-type':'set',"
            + "'items':{'type':'string'}},'ports':{'type':'array','x-kubernetes-list-type':'map','x-kubernetes-list-map-keys':['name'],"
            + "'items':{'type':'object','properties':{'name':{'type':'string'},'port':{'type':'integer'}}}},"
            + "'labels':{'type':'object','additionalProperties':{'type':'string'}},"
            + "'free':{'type':'object','x-kubernetes-preserve-unknown-fields':true},"
            + "'template':{'type':'object','x-kubernetes-embedded-resource':true,'properties':{'spec':{'type':'object',"
            + "'properties':{'size':{'type':'integer','default':3}}}}}}}}}";

    private static List<String> errors(String obj) throws Exception {
        return new SchemaValidator(json(SCHEMA)).validate(json(obj)).stream().map(FieldError::message).toList();
    }

    @Test
    void typesBoundsEnumsAndRequiredFields() throws Exception {
        assertEquals(List.of(), errors("{'spec':{'image':'nginx','replicas':3,'color':'red','port':'http'}}"));
        assertEquals(List.of("spec.image: Required value"), errors("{'spec':{}}"));
        assertEquals(List.of("spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\""),
                errors("{'spec':{'image':'nginx','replicas':'two'}}"));
        assertEquals(List.of("spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10"),
                errors("{'spec':{'image':'nginx','replicas':20}}"));
        assertEquals(List.of("spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1"),
                errors("{'spec':{'image':'nginx','replicas':0}}"));
        assertEquals(List.of("spec.color: Unsupported value: \"blue\": supported values: \"red\", \"green\""),
                errors("{'spec':{'image':'nginx','color':'blue'}}"));
        assertEquals(List.of("spec.image: Invalid value: \"n\": spec.image in body should be at least 2 chars long"),
                errors("{'spec':{'image':'n'}}"));
        assertEquals(List.of("spec.image: Too long: must have at most 10 bytes"), errors("{'spec':{'image':'nginx-nginx-x'}}"));
        assertEquals(List.of("spec.email: Invalid value: \"nope\": spec.email in body must be of type email: \"nope\""),
                errors("{'spec':{'image':'nginx','email':'nope'}}"));
        assertEquals(List.of("spec.labels.a: Invalid value: \"integer\": spec.labels.a in body must be of type string: \"integer\""),
                errors("{'spec':{'image':'nginx','labels':{'a':1}}}"));
    }

    @Test
    void updatesRatchetValuesTheyLeaveAsTheyWere() throws Exception {
        SchemaValidator validator = new SchemaValidator(json(SCHEMA));
        ObjectNode old = json("{'spec':{'replicas':20,'tags':['a','b','c']}}");
        assertEquals(List.of(), validator.validateUpdate(json("{'spec':{'replicas':20,'tags':['a','b','c'],'color':'red'}}"), old)
                .stream().map(FieldError::message).toList());
        assertEquals(List.of("spec.replicas: Invalid value: 30: spec.replicas in body should be less than or equal to 10"),
                validator.validateUpdate(json("{'spec':{'image':'nginx','replicas':30,'tags':['a','b','c']}}"), old)
                        .stream().map(FieldError::message).toList());
    }

    @Test
    void embeddedResourcesNameTheirApiVersionAndKind() throws Exception {
        assertEquals(List.of(), errors("{'spec':{'image':'nginx','template':{'apiVersion':'v1','kind':'Pod','spec':{}}}}"));
        assertEquals(List.of("spec.template.apiVersion: Required value: must not be empty",
                "spec.template.kind: Invalid value: \"\": must not be empty"),
                errors("{'spec':{'image':'nginx','template':{'kind':'','spec':{}}}}"));
    }

    @Test
    void listsCountItemsAndKeepKeysAndSetValuesUnique() throws Exception {
        assertEquals(List.of("spec.tags: Too many: 3: must have at most 2 items", "spec.tags[2]: Duplicate value: \"a\""),
                errors("{'spec':{'image':'nginx','tags':['a','b','a']}}"));
        assertEquals(List.of("spec.ports[1]: Duplicate value: \"map[name:http]\""),
                errors("{'spec':{'image':'nginx','ports':[{'name':'http','port':80},{'name':'http','port':81}]}}"));
    }

    @Test
    void pruningDropsWhatTheSchemaDoesNotSpecify() throws Exception {
        ObjectNode obj = json("{'apiVersion':'a/v1','kind':'K','metadata':{'name':'x','labels':{'a':'b'}},'extra':1,"
                + "'spec':{'image':'nginx','unknown':true,'labels':{'any':'thing'},'free':{'anything':{'goes':1}},"
                + "'template':{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},'spec':{'size':1,'nope':2}}}}");
        assertEquals(List.of("extra", "spec.unknown", "spec.template.spec.nope"), Pruning.prune(obj, json(SCHEMA)));
        assertEquals(json("{'apiVersion':'a/v1','kind':'K','metadata':{'name':'x','labels':{'a':'b'}},'spec':{'image':'nginx',"
                + "'labels':{'any':'thing'},'free':{'anything':{'goes':1}},'template':{'apiVersion':'v1','kind':'Pod',"
                + "'metadata':{'name':'p'},'spec':{'size':1}}}}"), obj);
    }

    @Test
    void defaultingFillsMissingAndNullFieldsTopDown() throws Exception {
        ObjectNode obj = json("{'spec':{'image':'nginx','replicas':null,'template':{'spec':{}}}}");
        Defaulting.apply(obj, json(SCHEMA));
        assertEquals(json("{'spec':{'image':'nginx','replicas':1,'template':{'spec':{'size':3}}}}"), obj);
    }
}
