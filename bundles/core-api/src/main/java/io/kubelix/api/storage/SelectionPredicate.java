package io.kubelix.api.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.osgi.annotation.versioning.ProviderType;

/** storage.SelectionPredicate: which objects a list or watch wants (label and field selectors). */
@ProviderType
public interface SelectionPredicate {
    SelectionPredicate EVERYTHING = new SelectionPredicate() {
        @Override
        public boolean matches(ObjectNode obj) {
            return true;
        }

        @Override
        public boolean matchesEverything() {
            return true;
        }

        @Override
        public String toString() {
            return "everything";
        }
    };

    boolean matches(ObjectNode obj);

    /** True when every object matches, so a backend may skip evaluating it. */
    boolean matchesEverything();

    /**
     * The value an object's {@code field} must have to match, when the field selector requires one
     * ({@code field=value} or {@code field==value}); null otherwise (kube's MatcherIndex). A watch cache
     * routes events to watchers by it when the resource indexes that field.
     */
    default String requiredFieldValue(String field) {
        return null;
    }
}
