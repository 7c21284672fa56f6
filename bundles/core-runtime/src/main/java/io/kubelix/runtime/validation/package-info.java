/**
 * Validation of request bodies as kube-apiserver's decoding does it, before any strategy sees
 * them: server-side field validation ({@code fieldValidation=Strict|Warn|Ignore}) with its
 * duplicate and unknown fields, and the typed decoding of built-in kinds that refuses a value of
 * the wrong type. Private to core-runtime.
 */
package io.kubelix.runtime.validation;
