package io.kubelix.api.admission;

/** admission.Operation. */
public enum Operation { CREATE, UPDATE, DELETE, CONNECT }
