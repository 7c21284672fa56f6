package io.kubelix.junit.impl;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;

/** client-java's {@code ApiClient} from the kubeconfig; closing it ends its OkHttp threads and connections. */
final class ClientJavaAdapter implements ClientAdapter {
    @Override
    public Object create(Path kubeconfig) throws Exception {
        try (Reader reader = Files.newBufferedReader(kubeconfig)) {
            return ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(reader)).build();
        }
    }

    @Override
    public void close(Object client) {
        ApiClient apiClient = (ApiClient) client;
        apiClient.getHttpClient().dispatcher().executorService().shutdown();
        apiClient.getHttpClient().connectionPool().evictAll();
    }
}
