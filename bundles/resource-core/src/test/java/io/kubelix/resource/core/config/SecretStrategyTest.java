package io.kubelix.resource.core.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.core.testing.Json.b64;
import static io.kubelix.resource.core.testing.Json.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SecretStrategyTest {
    private final SecretStrategy strategy = new SecretStrategy();
    private final RequestContext ctx = RequestContext.system("ns");

    private static List<String> messages(List<FieldError> errs) {
        return errs.stream().map(FieldError::message).toList();
    }

    private ObjectNode created(String json) {
        ObjectNode s = obj(json);
        strategy.prepareForCreate(ctx, s);
        return s;
    }

    @Test
    void stringDataIsMergedIntoDataOnCreateAndRemoved() {
        ObjectNode s = created("{'metadata':{'name':'s'},'data':{'a':'" + b64("old") + "','keep':'" + b64("k")
                + "'},'stringData':{'a':'new','b':'bee'}}");
        assertFalse(s.has("stringData"));
        assertEquals(b64("new"), s.path("data").path("a").asText());
        assertEquals(b64("bee"), s.path("data").path("b").asText());
        assertEquals(b64("k"), s.path("data").path("keep").asText());
        assertEquals(List.of(), strategy.validate(ctx, s));
    }

    @Test
    void stringDataIsMergedOnUpdateToo() {
        ObjectNode old = created("{'data':{'a':'" + b64("1") + "'}}");
        ObjectNode s = obj("{'type':'Opaque','stringData':{'a':'2'}}");
        strategy.prepareForUpdate(ctx, s, old);
        assertFalse(s.has("stringData"));
        assertEquals(b64("2"), s.path("data").path("a").asText());
        assertEquals(List.of(), strategy.validateUpdate(ctx, s, old));
    }

    @Test
    void typeDefaultsToOpaque() {
        assertEquals("Opaque", created("{'data':{}}").path("type").asText());
        assertEquals("kubernetes.io/tls", created("{'type':'kubernetes.io/tls'}").path("type").asText());
    }

    @Test
    void typeIsImmutable() {
        ObjectNode old = created("{'type':'kubernetes.io/basic-auth','data':{'username':'" + b64("u") + "'}}");
        ObjectNode s = obj("{'type':'Opaque','data':{'username':'" + b64("u") + "'}}");
        strategy.prepareForUpdate(ctx, s, old);
        List<FieldError> errs = strategy.validateUpdate(ctx, s, old);
        assertEquals(List.of("type: Invalid value: \"Opaque\": field is immutable"), messages(errs));
        assertEquals("type", errs.get(0).field());
    }

    @Test
    void anOmittedTypeKeepsTheOldOneOnUpdate() {
        ObjectNode old = created("{'type':'kubernetes.io/basic-auth','data':{'username':'" + b64("u") + "'}}");
        ObjectNode s = obj("{'data':{'password':'" + b64("p") + "'}}");
        strategy.prepareForUpdate(ctx, s, old);
        assertEquals("kubernetes.io/basic-auth", s.path("type").asText());
        assertEquals(List.of(), strategy.validateUpdate(ctx, s, old));
    }

    @Test
    void tlsNeedsCertAndKey() {
        List<FieldError> errs = strategy.validate(ctx, created("{'type':'kubernetes.io/tls','data':{'tls.crt':'"
                + b64("cert") + "'}}"));
        assertEquals(1, errs.size());
        assertEquals(FieldError.Type.REQUIRED, errs.get(0).type());
        assertEquals("data[tls.key]", errs.get(0).field());
        assertEquals("data[tls.key]: Required value", errs.get(0).message());

        assertEquals(List.of("data[tls.crt]: Required value", "data[tls.key]: Required value"),
                messages(strategy.validate(ctx, created("{'type':'kubernetes.io/tls'}"))));
        // stringData counts: it is merged before validation.
        assertEquals(List.of(), strategy.validate(ctx,
                created("{'type':'kubernetes.io/tls','stringData':{'tls.crt':'c','tls.key':'k'}}")));
    }

    @Test
    void otherWellKnownTypesNeedTheirKeys() {
        assertEquals(List.of("data[username]: Required value", "data[password]: Required value"),
                messages(strategy.validate(ctx, created("{'type':'kubernetes.io/basic-auth'}"))));
        assertEquals(List.of(), strategy.validate(ctx,
                created("{'type':'kubernetes.io/basic-auth','stringData':{'password':''}}")));
        assertEquals(List.of("data[ssh-privatekey]: Required value"),
                messages(strategy.validate(ctx, created("{'type':'kubernetes.io/ssh-auth','data':{'ssh-privatekey':''}}"))));
        assertEquals(List.of("metadata.annotations[kubernetes.io/service-account.name]: Required value"),
                messages(strategy.validate(ctx, created("{'type':'kubernetes.io/service-account-token'}"))));
        assertEquals(List.of(), strategy.validate(ctx, created("{'type':'kubernetes.io/service-account-token',"
                + "'metadata':{'annotations':{'kubernetes.io/service-account.name':'default'}}}")));
        assertEquals(List.of("data[.dockercfg]: Required value"),
                messages(strategy.validate(ctx, created("{'type':'kubernetes.io/dockercfg'}"))));
    }

    @Test
    void dockerConfigJsonMustBeAJsonObject() {
        assertEquals(List.of(), strategy.validate(ctx, created(
                "{'type':'kubernetes.io/dockerconfigjson','stringData':{'.dockerconfigjson':'{\"auths\":{}}'}}")));
        List<FieldError> errs = strategy.validate(ctx, created(
                "{'type':'kubernetes.io/dockerconfigjson','stringData':{'.dockerconfigjson':'[1]'}}"));
        assertEquals(List.of("data[.dockerconfigjson]: Invalid value: \"<secret contents redacted>\": "
                + "json: cannot unmarshal array into Go value of type map[string]interface {}"), messages(errs));
        errs = strategy.validate(ctx, created(
                "{'type':'kubernetes.io/dockerconfigjson','stringData':{'.dockerconfigjson':'{\"a\":'}}"));
        assertEquals(List.of("data[.dockerconfigjson]: Invalid value: \"<secret contents redacted>\": "
                + "unexpected end of JSON input"), messages(errs));
    }

    /**
     * kube decodes a Secret's data while decoding the body: a create or PUT of data that is not
     * base64 is a 400 naming the decoder's error; the object a patch produces is validated (422).
     */
    @Test
    void aCreateOrPutOfDataThatIsNotBase64IsABadRequest() {
        for (String verb : new String[]{"create", "update"}) {
            StatusException e = assertThrows(StatusException.class, () -> {
                ObjectNode s = obj("{'data':{'v':'%%%%'}}");
                if (verb.equals("create")) {
                    strategy.prepareForCreate(TestContexts.request(verb, "secrets"), s);
                } else {
                    strategy.prepareForUpdate(TestContexts.request(verb, "secrets"), s, obj("{'type':'Opaque'}"));
                }
            });
            assertEquals(400, e.code(), verb);
            assertEquals("Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input byte 0",
                    e.getMessage());
        }
        ObjectNode patched = obj("{'data':{'v':'%%%%'}}");
        strategy.prepareForUpdate(TestContexts.request("patch", "secrets"), patched, obj("{'type':'Opaque'}"));
        assertEquals("data[v]: Invalid value: \"<secret contents redacted>\": illegal base64 data at input byte 0",
                messages(strategy.validate(TestContexts.request("patch", "secrets"), patched)).get(0));
    }

    @Test
    void dataKeysAndValuesAreChecked() {
        List<FieldError> errs = strategy.validate(ctx, created("{'data':{'a b':'" + b64("x") + "','v':'%%%%'}}"));
        assertEquals(2, errs.size());
        assertEquals("data[a b]", errs.get(0).field());
        assertTrue(errs.get(0).message().startsWith("data[a b]: Invalid value: \"a b\": a valid config key"));
        assertEquals("data[v]: Invalid value: \"<secret contents redacted>\": illegal base64 data at input byte 0",
                errs.get(1).message());
    }

    @Test
    void totalSizeIsLimitedToOneMebibyte() {
        ObjectNode s = created("{'stringData':{}}");
        s.with("data").put("a", Base64Data.encode(new byte[SecretValidation.MAX_SECRET_SIZE]));
        assertEquals(List.of(), strategy.validate(ctx, s));
        s.with("data").put("b", Base64Data.encode(new byte[1]));
        assertEquals(List.of("data: Too long: must have at most 1048576 bytes"), messages(strategy.validate(ctx, s)));
    }

    @Test
    void immutableSecretRejectsDataChanges() {
        ObjectNode old = created("{'immutable':true,'data':{'a':'" + b64("1") + "'}}");
        ObjectNode s = obj("{'immutable':true,'stringData':{'a':'2'}}");
        strategy.prepareForUpdate(ctx, s, old);
        assertEquals(List.of("data: Forbidden: field is immutable when `immutable` is set"),
                messages(strategy.validateUpdate(ctx, s, old)));
        ObjectNode unset = obj("{'data':{'a':'" + b64("1") + "'}}");
        strategy.prepareForUpdate(ctx, unset, old);
        assertEquals(List.of("immutable: Forbidden: field is immutable when `immutable` is set"),
                messages(strategy.validateUpdate(ctx, unset, old)));
    }

    @Test
    void canonicalizeReencodesData() {
        ObjectNode s = created("{'data':{'a':'Zm9v\\nYmFy'}}");
        strategy.canonicalize(s);
        assertEquals("Zm9vYmFy", s.path("data").path("a").asText());
    }
}
