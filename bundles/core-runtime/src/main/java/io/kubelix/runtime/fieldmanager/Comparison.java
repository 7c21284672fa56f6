package io.kubelix.runtime.fieldmanager;

/**
 * What changed between two objects (typed.Comparison): the paths added, whose value changed, and
 * removed. A map or list item that appears or goes is itself added or removed beside its fields.
 */
record Comparison(FieldSet added, FieldSet modified, FieldSet removed) {
    /** The comparison without the paths of {@code ignored} and what lies under them. */
    Comparison without(FieldSet ignored) {
        return new Comparison(added.recursiveDifference(ignored), modified.recursiveDifference(ignored),
                removed.recursiveDifference(ignored));
    }

    boolean isSame() {
        return added.isEmpty() && modified.isEmpty() && removed.isEmpty();
    }
}
