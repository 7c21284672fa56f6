package io.kubelix.resource.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The server-side Table columns of the RBAC resources as kube serves them: roles and clusterroles
 * through kube's default table convertor (NAME, CREATED AT), bindings through its printers
 * (NAME, ROLE, AGE; wide USERS, GROUPS, SERVICEACCOUNTS).
 */
final class RbacPrinters {
    static final String CREATED_AT_DESCRIPTION = "CreationTimestamp is a timestamp representing the server time when "
            + "this object was created. It is not guaranteed to be set in happens-before order across separate "
            + "operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\n"
            + "Populated by the system. Read-only. Null for lists. More info: "
            + "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
    static final String ROLE_REF_DESCRIPTION = "RoleRef can reference a Role in the current namespace or a ClusterRole "
            + "in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.";

    private RbacPrinters() {
    }

    /** NAME, CREATED AT: the creation time in RFC 3339, UTC. */
    static List<TableColumn> roleColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Created At", "date", "", CREATED_AT_DESCRIPTION, 0, RbacPrinters::createdAt));
    }

    /** NAME, ROLE (kind/name), AGE; wide: USERS, GROUPS, SERVICEACCOUNTS (namespace/name). */
    static List<TableColumn> bindingColumns(String kind) {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Role", "string", "", ROLE_REF_DESCRIPTION, 0,
                        o -> o.path("roleRef").path("kind").asText("") + "/" + o.path("roleRef").path("name").asText("")),
                TableColumn.ageColumn(),
                new TableColumn("Users", "string", "", "Users in the " + kind, 1, o -> subjects(o, RbacValidation.USER)),
                new TableColumn("Groups", "string", "", "Groups in the " + kind, 1, o -> subjects(o, RbacValidation.GROUP_KIND)),
                new TableColumn("ServiceAccounts", "string", "", "ServiceAccounts in the " + kind, 1,
                        o -> subjects(o, RbacValidation.SERVICE_ACCOUNT)));
    }

    private static Object createdAt(ObjectNode o) {
        String ts = o.path("metadata").path("creationTimestamp").asText("");
        try {
            return Instant.parse(ts).toString();
        } catch (DateTimeParseException e) {
            return ts;
        }
    }

    /** The subjects of one kind, comma-separated; service accounts as {@code namespace/name}. */
    private static String subjects(ObjectNode o, String kind) {
        List<String> out = new ArrayList<>();
        for (JsonNode s : o.path("subjects")) {
            if (kind.equals(s.path("kind").asText())) {
                String name = s.path("name").asText("");
                out.add(RbacValidation.SERVICE_ACCOUNT.equals(kind) ? s.path("namespace").asText("") + "/" + name : name);
            }
        }
        return String.join(", ", out);
    }
}
