package io.kubelix.junit;

import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the test class against a real Kubelix API server started inside the test JVM (see
 * {@link KubelixExtension}): one server for the class, or with {@code shared = true} one for every
 * class of the test run that asks for it with the same flags.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(KubelixExtension.class)
public @interface KubelixTest {
    /** One server for every class of the run with {@code shared = true} and the same {@link #flags()}. */
    boolean shared() default false;

    /**
     * kube-apiserver flags as {@code name=value} without dashes, as {@code bin/kubelix} takes them,
     * e.g. {@code "authorization-mode=AlwaysAllow"}. The port, bind address and data directory are
     * chosen by the extension.
     */
    String[] flags() default {};

    /**
     * CustomResourceDefinitions to create before the tests, each waited for until Established:
     * YAML files (several documents each, if need be) as class path resources such as
     * {@code "crds/widgets.yaml"}, or as file or directory paths (a directory's {@code .yaml} and
     * {@code .yml} files in name order), relative to the working directory.
     */
    String[] crds() default {};
}
