package io.kubelix.apiextensions.customresource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The warning of a deprecated CRD version, as kube's crdHandler words it. */
class DeprecationWarningTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode crd(String versions) throws Exception {
        return JSON.readTree(("{'spec':{'group':'stable.example.com','names':{'kind':'Widget'},'versions':" + versions + "}}")
                .replace('\'', '"'));
    }

    @Test
    void kubesDefaultNamesThePreferredVersionNotDeprecated() throws Exception {
        JsonNode crd = crd("[{'name':'v1alpha1','served':true,'deprecated':true},{'name':'v1beta1','served':true},"
                + "{'name':'v1','served':true},{'name':'v2','served':false}]");
        assertEquals("stable.example.com/v1alpha1 Widget is deprecated; use stable.example.com/v1 Widget",
                CustomResourceGroupProvider.deprecationWarning(crd, crd.at("/spec/versions/0")));
        assertNull(CustomResourceGroupProvider.deprecationWarning(crd, crd.at("/spec/versions/1")));
    }

    @Test
    void theVersionsOwnWarningOrNoNewerVersion() throws Exception {
        JsonNode crd = crd("[{'name':'v1','served':true,'deprecated':true,'deprecationWarning':'use widgets.v2'},"
                + "{'name':'v1beta1','served':true,'deprecated':true}]");
        assertEquals("use widgets.v2", CustomResourceGroupProvider.deprecationWarning(crd, crd.at("/spec/versions/0")));
        assertEquals("stable.example.com/v1beta1 Widget is deprecated",
                CustomResourceGroupProvider.deprecationWarning(crd, crd.at("/spec/versions/1")));
    }
}
