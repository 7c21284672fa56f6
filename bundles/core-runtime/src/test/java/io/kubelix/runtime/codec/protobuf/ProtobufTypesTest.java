package io.kubelix.runtime.codec.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The messages' fields against the JSON fields of the Kubernetes Java client's models. */
class ProtobufTypesTest {
    /** A field of an older API level than the models': the messages predate kube 1.31's PodResourceClaim. */
    private static final Set<String> OLDER = Set.of("k8s.io.api.core.v1.PodResourceClaim.source");

    @Test
    void everyFieldIsAJsonFieldOrAnInlineStruct() throws Exception {
        List<String> unknown = new ArrayList<>();
        int checked = 0;
        for (FileDescriptor file : ProtobufTypes.FILES) {
            String version = file.getPackage().substring(file.getPackage().lastIndexOf('.') + 1);
            String prefix = Character.toUpperCase(version.charAt(0)) + version.substring(1);
            for (Descriptor d : file.getMessageTypes()) {
                Set<String> names = jsonNames("io.kubernetes.client.openapi.models." + prefix + d.getName());
                if (names == null) {
                    continue;
                }
                for (FieldDescriptor fd : d.getFields()) {
                    checked++;
                    boolean inline = ProtobufTypes.INLINE_FIELDS.contains(fd.getFullName());
                    if (!inline && !names.contains(ProtobufTypes.jsonName(fd)) && !OLDER.contains(fd.getFullName())) {
                        unknown.add(fd.getFullName());
                    }
                }
            }
        }
        assertTrue(checked > 1000, "fields checked: " + checked);
        assertEquals(List.of(), unknown);
    }

    /** The JSON names of a model's fields, or null when the client has no such model. */
    private static Set<String> jsonNames(String model) throws IllegalAccessException {
        Class<?> c;
        try {
            c = Class.forName(model);
        } catch (ClassNotFoundException e) {
            return null;
        }
        Set<String> names = new HashSet<>();
        for (var f : c.getFields()) {
            if (f.getName().startsWith("SERIALIZED_NAME_")) {
                names.add((String) f.get(null));
            }
        }
        return names;
    }
}
