package io.kubelix.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A {@code String} parameter or field that receives the name of a namespace created for the test
 * method, named after it with a random suffix, and deleted after it. The test's {@code @BeforeEach}
 * and {@code @AfterEach} methods get the same one. Asked for in a {@code @BeforeAll} method or on a
 * static field, it is one namespace for the class.
 */
@Target({ElementType.PARAMETER, ElementType.FIELD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface TestNamespace {
}
