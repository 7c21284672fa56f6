package io.kubelix.runtime.registry;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.runtime.metrics.ServerMetrics;
import io.kubelix.runtime.server.PluginSwaps;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The chain records kube's admission latencies: per step and per plugin, rejected or not. */
class AdmissionMetricsTest {

    @Test
    void stepsAndPluginsAreTimedWithKubesLabels() throws Exception {
        ServerMetrics metrics = new ServerMetrics();
        AdmissionChain chain = new AdmissionChain(PluginSwaps.none(), AdmissionOrder.enabled("", ""), metrics.admission());
        chain.addMutating(TestAdmissionPlugins.mutating("ServiceAccount", a -> { }), Map.of("service.id", 1L));
        chain.addValidating(TestAdmissionPlugins.validating("ResourceQuota", a -> {
            throw StatusException.badRequest("exceeded quota");
        }), Map.of("service.id", 2L));

        AdmissionAttributes create = new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("", "v1", "Pod"),
                new GroupVersionResource("", "v1", "pods"), "", "default", "p",
                new ObjectMapper().createObjectNode(), null, false, RequestContext.system("default"));
        chain.admit(create);
        assertThrows(StatusException.class, () -> chain.validate(create));

        String text = scrape(metrics);
        assertTrue(text.contains("apiserver_admission_step_admission_duration_seconds_count{operation=\"CREATE\",rejected=\"false\",type=\"admit\"} 1"), text);
        assertTrue(text.contains("apiserver_admission_step_admission_duration_seconds_count{operation=\"CREATE\",rejected=\"true\",type=\"validate\"} 1"), text);
        assertTrue(text.contains("apiserver_admission_controller_admission_duration_seconds_count{name=\"ServiceAccount\",operation=\"CREATE\",rejected=\"false\",type=\"admit\"} 1"), text);
        assertTrue(text.contains("apiserver_admission_controller_admission_duration_seconds_count{name=\"ResourceQuota\",operation=\"CREATE\",rejected=\"true\",type=\"validate\"} 1"), text);
        assertTrue(text.contains("apiserver_admission_controller_admission_duration_seconds_bucket{name=\"ResourceQuota\",operation=\"CREATE\",rejected=\"true\",type=\"validate\",le=\"2.5\"} 1"), text);
        assertTrue(text.contains("apiserver_admission_step_admission_duration_seconds_summary{operation=\"CREATE\",rejected=\"false\",type=\"admit\",quantile=\"0.99\"}"), text);
    }

    private static String scrape(ServerMetrics metrics) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, metrics.registry().scrape());
        return out.toString(StandardCharsets.UTF_8);
    }
}
