package io.kubelix.support.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.EquivalentResourceMapper;
import io.kubelix.api.errors.StatusException;

/**
 * kube's {@code admission.VersionedAttributes}: a request's objects as the resource a configuration
 * matched serves them. For the request's own resource they are the request's objects; for an
 * equivalent one ({@code matchPolicy: Equivalent}) they are converted to its version, and a
 * mutation of them is converted back with {@link #applyTo}.
 *
 * @param attributes the request
 * @param match      what the configuration matched the request as
 * @param object     the new object in the matched version, or null
 * @param oldObject  the old object in the matched version, or null
 */
public record VersionedAttributes(AdmissionAttributes attributes, AdmissionMatcher.Match match, ObjectNode object,
                                  ObjectNode oldObject) {

    /**
     * The request's objects as {@code match} serves them.
     *
     * @throws StatusException kube's 500 when they cannot be converted
     */
    public static VersionedAttributes of(AdmissionAttributes a, AdmissionMatcher.Match match,
                                         EquivalentResourceMapper mapper) {
        if (match.isRequested(a) || mapper == null) {
            return new VersionedAttributes(a, match, a.object(), a.oldObject());
        }
        return new VersionedAttributes(a, match, convert(mapper, a, a.object(), match),
                convert(mapper, a, a.oldObject(), match));
    }

    /** Whether the objects were converted from the request's, so a change of {@link #object} must be carried back. */
    public boolean converted() {
        return !match.isRequested(attributes);
    }

    /**
     * Carries {@code mutated}, this request's object in the matched version changed by a mutating
     * configuration, into the request's object, converted back to the request's version.
     */
    public void applyTo(ObjectNode mutated, EquivalentResourceMapper mapper) {
        ObjectNode target = attributes.object();
        ObjectNode result = converted()
                ? mapper.convert(mutated, match.resource(), attributes.resource(), attributes.subresource())
                : mutated;
        if (result != target) {
            target.removeAll();
            target.setAll(result);
        }
    }

    private static ObjectNode convert(EquivalentResourceMapper mapper, AdmissionAttributes a, ObjectNode obj,
                                      AdmissionMatcher.Match match) {
        return obj == null ? null : mapper.convert(obj, a.resource(), match.resource(), a.subresource());
    }
}
