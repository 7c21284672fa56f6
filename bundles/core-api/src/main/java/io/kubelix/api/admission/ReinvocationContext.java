package io.kubelix.api.admission;

import java.util.HashMap;
import java.util.Map;

/**
 * admission.ReinvocationContext: what one request's mutating admission remembers between its
 * first pass and the second one. A plugin that changed the object after a plugin asking to be
 * reinvoked had run calls {@link #setShouldReinvoke()}; the chain then runs every mutating plugin
 * once more with {@link #isReinvoke()} true (kube's {@code reinvocationPolicy: IfNeeded}). Plugins
 * keep their own state under their name with {@link #value} and {@link #setValue}. Not thread-safe:
 * one request's admission runs on one thread.
 */
public final class ReinvocationContext {
    private boolean reinvoke;
    private boolean shouldReinvoke;
    private final Map<String, Object> values = new HashMap<>();

    /** True during the second pass. */
    public boolean isReinvoke() {
        return reinvoke;
    }

    /** Called by the chain before the second pass. */
    public void setIsReinvoke() {
        reinvoke = true;
    }

    /** Whether some plugin asked for a second pass. */
    public boolean shouldReinvoke() {
        return shouldReinvoke;
    }

    /** Asks for a second pass of mutating admission. */
    public void setShouldReinvoke() {
        shouldReinvoke = true;
    }

    /** A plugin's state for this request, or null. */
    public Object value(String key) {
        return values.get(key);
    }

    public void setValue(String key, Object value) {
        values.put(key, value);
    }
}
