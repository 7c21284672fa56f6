package io.kubelix.api.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** storage.SelectionPredicate: which objects a list or watch wants (label and field selectors). */
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
}
