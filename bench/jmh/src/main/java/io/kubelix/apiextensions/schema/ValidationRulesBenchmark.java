package io.kubelix.apiextensions.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * What a CRD's x-kubernetes-validations rules cost per validated object: the CEL validation of one
 * custom resource (a spec of a 1-KiB string, two integers, two names and three tags) on create, with
 * 0, 1, 3 or 5 of the custom-resources scenario's rules on its spec. The rules are compiled once, as
 * the CRD handler compiles them when the CRD is served.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ValidationRulesBenchmark {
    private static final String[] RULES = {
        "self.size <= self.max",
        "self.name.startsWith('w-')",
        "self.tags.all(t, t.size() > 0 && t.size() <= 63)",
        "!has(self.owner) || self.owner != self.name",
        "self.tags.size() <= 16",
    };

    @Param({"0", "1", "3", "5"})
    public int rules;

    private ValidationRules validation;
    private JsonNode object;

    @Setup
    public void setUp() throws Exception {
        ObjectMapper json = new ObjectMapper();
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < rules; i++) {
            list.append(i == 0 ? "" : ",").append("{\"rule\":").append(json.writeValueAsString(RULES[i])).append('}');
        }
        JsonNode schema = json.readTree("""
                {"type":"object","properties":{"spec":{"type":"object","x-kubernetes-validations":[%s],"properties":{
                "data":{"type":"string","maxLength":65536},"size":{"type":"integer"},"max":{"type":"integer"},
                "name":{"type":"string","maxLength":63},"owner":{"type":"string","maxLength":63},
                "tags":{"type":"array","maxItems":16,"items":{"type":"string","maxLength":63}}}}}}""".formatted(list));
        if (!ValidationRules.compileErrors(schema, "schema").isEmpty()) {
            throw new IllegalStateException(ValidationRules.compileErrors(schema, "schema").toString());
        }
        validation = ValidationRules.of(schema);
        object = json.readTree("""
                {"apiVersion":"bench.kubelix.io/v1","kind":"Ruledwidget","metadata":{"name":"w","namespace":"bench"},
                "spec":{"data":"%s","size":3,"max":10,"name":"w-1","owner":"bench","tags":["a","b","c"]}}"""
                .formatted("x".repeat(1024)));
        if (!validation.validate(object, null).errors().isEmpty()) {
            throw new IllegalStateException(validation.validate(object, null).errors().toString());
        }
    }

    @Benchmark
    public ValidationRules.Result validate() {
        return validation.validate(object, null);
    }
}
