package io.kubelix.junit.impl;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import java.nio.file.Files;
import java.nio.file.Path;

/** fabric8's {@code KubernetesClient} from the kubeconfig, with the library's defaults otherwise. */
final class Fabric8ClientAdapter implements ClientAdapter {
    @Override
    public Object create(Path kubeconfig) throws Exception {
        return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(kubeconfig))).build();
    }

    @Override
    public void close(Object client) {
        ((KubernetesClient) client).close();
    }
}
