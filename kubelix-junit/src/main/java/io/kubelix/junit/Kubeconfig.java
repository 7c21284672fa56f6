package io.kubelix.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A {@code java.nio.file.Path} parameter or field that receives the server's admin kubeconfig, for
 * kubectl, a client of one's own or code under test that reads {@code KUBECONFIG}.
 */
@Target({ElementType.PARAMETER, ElementType.FIELD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Kubeconfig {
}
