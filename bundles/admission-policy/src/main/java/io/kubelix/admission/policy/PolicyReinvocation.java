package io.kubelix.admission.policy;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.HashSet;
import java.util.Set;

/**
 * kube's {@code policyReinvokeContext}: what the MutatingAdmissionPolicy plugin remembers of one
 * request between the chain's first and second pass. An invocation (policy, binding and param) with
 * {@code reinvocationPolicy: IfNeeded} that ran before another one changed the object is due again;
 * so is every such invocation when the in-process plugins changed the object on their second pass.
 */
final class PolicyReinvocation {
    /** An invocation: a policy with one binding and one param (empty names for none). */
    record Key(String policy, String binding, String paramNamespace, String paramName) {
    }

    private ObjectNode lastOutput;
    private Set<Key> previouslyInvokedReinvocable = new HashSet<>();
    private final Set<Key> reinvoke = new HashSet<>();

    boolean outputChangedSinceLastInvocation(ObjectNode object) {
        return object != null && !object.equals(lastOutput);
    }

    void setLastOutput(ObjectNode object) {
        lastOutput = object == null ? null : object.deepCopy();
    }

    /** The object changed: every reinvocable invocation that ran before is due again. */
    void requireReinvokingPreviouslyInvoked() {
        reinvoke.addAll(previouslyInvokedReinvocable);
        previouslyInvokedReinvocable = new HashSet<>();
    }

    void addReinvocable(Key key) {
        previouslyInvokedReinvocable.add(key);
    }

    boolean shouldReinvoke(Key key) {
        return reinvoke.contains(key);
    }
}
