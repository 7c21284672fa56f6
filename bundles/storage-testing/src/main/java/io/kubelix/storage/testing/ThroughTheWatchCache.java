package io.kubelix.storage.testing;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.reflect.Method;
import java.util.List;

/**
 * For a backend's run of the suite through core-runtime's watch cache (the Cacher):
 * {@code @ExtendWith(ThroughTheWatchCache.class)} disables the one test that does not apply there.
 * {@code watchFromCompactedRevisionIsExpired} compacts the backend and expects a watch from an
 * older revision to fail with 410; through the Cacher such a watch is served from the watch cache's
 * window, which still holds those events, as kube-apiserver's cacher does (410 only beyond the
 * window, which core-runtime's CacherTest covers).
 */
public final class ThroughTheWatchCache implements ExecutionCondition {
    private static final List<String> NOT_APPLICABLE = List.of("watchFromCompactedRevisionIsExpired");

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        String name = context.getTestMethod().map(Method::getName).orElse("");
        return NOT_APPLICABLE.contains(name)
                ? ConditionEvaluationResult.disabled(name + ": the watch cache serves the compacted revision from "
                + "its window, as kube-apiserver's cacher does")
                : ConditionEvaluationResult.enabled("applies through the watch cache");
    }
}
