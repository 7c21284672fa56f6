package io.kubelix.api.registry;

/** Which names a resource accepts (ValidateNameFunc). */
public enum NameValidation {
    /** Lower-case alphanumerics, '-' and '.', at most 253 characters (most resources). */
    DNS1123_SUBDOMAIN,
    /** Lower-case alphanumerics and '-', at most 63 characters (namespaces, services). */
    DNS1123_LABEL,
    /** Anything that is a valid path segment: not "." or "..", no '/' or '%'. */
    PATH_SEGMENT
}
