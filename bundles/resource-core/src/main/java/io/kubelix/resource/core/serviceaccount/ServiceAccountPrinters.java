package io.kubelix.resource.core.serviceaccount;

import io.kubelix.api.registry.TableColumn;

import java.util.List;

/** The Table columns of service accounts, as kube's printServiceAccount fills them. */
final class ServiceAccountPrinters {

    private ServiceAccountPrinters() {
    }

    /** NAME, SECRETS (how many), AGE. */
    static List<TableColumn> serviceAccountColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Secrets", "string", "", "Secrets is a list of the secrets in the same namespace "
                        + "that pods running using this ServiceAccount are allowed to use.", 0,
                        o -> (long) o.path("secrets").size()),
                TableColumn.ageColumn());
    }
}
