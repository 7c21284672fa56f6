package io.kubelix.runtime.registry;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.NameValidation;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** metadata.ownerReferences as kube-apiserver validates them (ValidateOwnerReferences). */
class ObjectMetaOwnerReferencesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<String> errors(String ownerReferences) throws Exception {
        ObjectNode meta = (ObjectNode) JSON.readTree(
                "{\"name\":\"child\",\"namespace\":\"default\",\"ownerReferences\":" + ownerReferences + "}");
        return ObjectMetaValidation.validate(meta, NameValidation.DNS1123_SUBDOMAIN, true).stream()
                .map(FieldError::message).toList();
    }

    @Test
    void aCompleteReferenceIsValidWhateverItsGroup() throws Exception {
        assertEquals(List.of(), errors("[{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"name\":\"rs\","
                + "\"uid\":\"4f1c\",\"controller\":true,\"blockOwnerDeletion\":true},"
                + "{\"apiVersion\":\"example.com/v1alpha1\",\"kind\":\"Thing\",\"name\":\"t\",\"uid\":\"9\"}]"));
    }

    @Test
    void everyPartIsRequiredWithKubesFieldPathsWithoutIndex() throws Exception {
        assertEquals(List.of(
                        "metadata.ownerReferences.apiVersion: Invalid value: \"apps/\": version must not be empty",
                        "metadata.ownerReferences.kind: Invalid value: \"\": kind must not be empty",
                        "metadata.ownerReferences.name: Invalid value: \"\": name must not be empty",
                        "metadata.ownerReferences.uid: Invalid value: \"\": uid must not be empty"),
                errors("[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"ok\",\"uid\":\"1\"},"
                        + "{\"apiVersion\":\"apps/\"}]"));
    }

    @Test
    void anEventCannotOwnAnything() throws Exception {
        assertEquals(List.of("metadata.ownerReferences: Invalid value: v1.OwnerReference{APIVersion:\"v1\", "
                        + "Kind:\"Event\", Name:\"e\", UID:\"1\", Controller:(*bool)(nil), BlockOwnerDeletion:(*bool)(nil)}: "
                        + "/v1, Kind=Event is disallowed from being an owner"),
                errors("[{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\",\"uid\":\"1\"}]"));
    }

    @Test
    void onlyOneReferenceMayBeTheController() throws Exception {
        List<String> errs = errors("[{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"name\":\"a\",\"uid\":\"1\","
                + "\"controller\":true},{\"apiVersion\":\"apps/v1\",\"kind\":\"StatefulSet\",\"name\":\"b\",\"uid\":\"2\","
                + "\"controller\":true}]");
        assertEquals(1, errs.size(), errs::toString);
        String e = errs.get(0);
        assertTrue(e.startsWith("metadata.ownerReferences: Invalid value: []v1.OwnerReference{{APIVersion:\"apps/v1\""), e);
        assertTrue(e.endsWith(": Only one reference can have Controller set to true. Found \"true\" in references "
                + "for ReplicaSet/a and StatefulSet/b"), e);
    }
}
