package io.kubelix.resource.core.serviceaccount;

import io.kubelix.resource.core.testing.Json;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ServiceAccountPrintersTest {

    @Test
    void secretsAreCounted() {
        assertEquals(2L, ServiceAccountPrinters.serviceAccountColumns().get(1).cell()
                .apply(Json.obj("{'secrets':[{'name':'a'},{'name':'b'}]}")));
    }
}
