package io.kubelix.api.errors;

/**
 * metav1.StatusCause: one reason a request failed, usually one invalid field.
 *
 * @param type    a CauseType such as {@code FieldValueRequired} or {@code FieldValueInvalid}
 * @param message a human-readable description
 * @param field   the field path ({@code metadata.name}, {@code spec.containers[0].image}), or null
 */
public record StatusCause(String type, String message, String field) {
}
