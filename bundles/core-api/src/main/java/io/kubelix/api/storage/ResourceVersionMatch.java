package io.kubelix.api.storage;

/** metav1.ResourceVersionMatch: how a read's resourceVersion is interpreted. */
public enum ResourceVersionMatch {
    /** Unset: "0" means any, "N" means not older than N. */
    UNSET(""),
    NOT_OLDER_THAN("NotOlderThan"),
    EXACT("Exact");

    private final String wireName;

    ResourceVersionMatch(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
