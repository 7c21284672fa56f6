package io.kubelix.resource.core.pod;

import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.resource.core.common.CoreSchemas;

import java.util.Map;

/** {@code podtemplates}, as kube's podtemplate storage serves them. */
public final class PodTemplateStorage {
    static final GroupResource PODTEMPLATES = GroupResource.of("", "podtemplates");

    private PodTemplateStorage() {
    }

    public static void install(RESTOptionsGetter getter, Map<String, RESTStorage> v1) {
        v1.put("podtemplates", getter.newStore(spec()));
    }

    static StoreSpec spec() {
        return StoreSpec.builder(PODTEMPLATES, "PodTemplate")
                .schema(CoreSchemas.v1("PodTemplate"))
                .namespaced(true)
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(new PodTemplateStrategy())
                .generation(true)
                .tableColumns(PodTemplatePrinters.podTemplateColumns().toArray(TableColumn[]::new))
                .build();
    }
}
