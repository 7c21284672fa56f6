package io.kubelix.apiextensions.schema;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.support.cel.CelCompileException;
import io.kubelix.support.cel.CelEnvironment;
import io.kubelix.support.cel.CelEvaluationError;
import io.kubelix.support.cel.CelExpression;
import io.kubelix.support.cel.CelValues;
import io.kubelix.support.cel.SchemaSizes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * kube's CEL validation of custom objects ({@code x-kubernetes-validations}, apiserver/schema/cel):
 * every rule of a schema node runs with {@code self} bound to the value there, and transition rules
 * (those using {@code oldSelf}) on updates, with {@code oldSelf} the old value at the same place
 * (object fields by name, {@code x-kubernetes-list-type: map} items by their keys) and only where
 * there is one. A rule that fails reports its {@code messageExpression}, {@code message} or
 * {@code failed rule: <rule>}, at its {@code fieldPath}, as its {@code reason} says; each rule runs
 * under kube's per-call cost limit and all rules of an object under kube's budget. As kube 1.33
 * ratchets, a rule without {@code oldSelf} failing on a value the update does not change is a
 * warning, not an error.
 */
public final class ValidationRules {
    private static final CelEnvironment ENV = CelEnvironment.builder()
            .variable("self", CelEnvironment.Type.DYN)
            .variable("oldSelf", CelEnvironment.Type.DYN)
            .build();

    private record Rule(JsonNode source, CelExpression rule, CelExpression messageExpression, boolean usesOldSelf) {
        String errorString() {
            String message = source.path("message").asText("").strip();
            return message.isEmpty() ? source.path("rule").asText("").strip() : message;
        }
    }

    /** What a validation found: errors, and the warnings of ratcheted rules. */
    public record Result(List<FieldError> errors, List<String> warnings) {
    }

    private final JsonNode schema;
    private final Map<JsonNode, List<Rule>> rules = new IdentityHashMap<>();
    private final boolean any;

    private ValidationRules(JsonNode schema) {
        this.schema = schema;
        collect(schema);
        this.any = !rules.isEmpty();
    }

    /** The rules of a schema, compiled; rules that do not compile are left out (the CRD's validation reports them). */
    public static ValidationRules of(JsonNode schema) {
        return new ValidationRules(schema);
    }

    /**
     * The compile errors of every rule and message expression of {@code schema}, at kube's paths
     * under {@code path}, and those of their estimated costs over kube's limits.
     */
    public static List<FieldError> compileErrors(JsonNode schema, String path) {
        List<FieldError> errs = new ArrayList<>();
        TotalCost total = new TotalCost();
        compileErrors(schema, path, null, true, 1L, total, errs);
        errs.addAll(total.errors(path));
        return errs;
    }

    /**
     * @param uncorrelatable the path of the outermost list (not {@code x-kubernetes-list-type: map})
     *                       or atomic map this schema is inside, where {@code oldSelf} has nothing to
     *                       correlate with; null when there is none
     * @param root           {@code s} is the schema of the whole object
     * @param cardinality    how many values of {@code s} one object can hold at most, from the
     *                       {@code maxItems} and {@code maxProperties} of the lists and maps around it;
     *                       null when one of them has none (kube's MaxCardinality)
     */
    private static void compileErrors(JsonNode s, String path, String uncorrelatable, boolean root, Long cardinality,
                                      TotalCost total, List<FieldError> errs) {
        if (!s.isObject()) {
            return;
        }
        JsonNode list = s.path("x-kubernetes-validations");
        // as kube, rules are checked against the types the schema declares for self and oldSelf
        CelEnvironment env = list.isEmpty() ? null
                : CelEnvironment.builder().variable("self", s, root).variable("oldSelf", s, root).build();
        SchemaSizes sizes = new SchemaSizes(s, root);
        long times = cardinality != null ? cardinality : SchemaSizes.maxCardinality(s, root);
        for (int i = 0; i < list.size(); i++) {
            JsonNode r = list.get(i);
            String p = path + ".x-kubernetes-validations[" + i + "]";
            String rule = r.path("rule").asText("");
            boolean compiled = false;
            if (!rule.isBlank()) {
                try {
                    long cost = TotalCost.times(env.compile(rule).estimateCost(sizes).max(), times);
                    if (cost > TotalCost.STATIC_ESTIMATED_COST_LIMIT) {
                        errs.add(FieldError.forbidden(p + ".rule", TotalCost.costErrorMessage("estimated rule cost", cost,
                                TotalCost.STATIC_ESTIMATED_COST_LIMIT)));
                    }
                    total.observe(p + ".rule", cost);
                    compiled = true;
                } catch (CelCompileException e) {
                    errs.add(FieldError.invalid(p + ".rule", rule, "compilation failed: " + e.getMessage()));
                }
            }
            String messageExpression = r.path("messageExpression").asText("");
            if (!messageExpression.isBlank()) {
                try {
                    // as kube, a message expression's cost is not multiplied: it runs only for a failed rule
                    long cost = env.compile(messageExpression).estimateCost(sizes).max();
                    if (cost > TotalCost.STATIC_ESTIMATED_COST_LIMIT) {
                        errs.add(FieldError.forbidden(p + ".messageExpression", TotalCost.costErrorMessage(
                                "estimated messageExpression cost", cost, TotalCost.STATIC_ESTIMATED_COST_LIMIT)));
                    }
                    total.observe(p + ".messageExpression", cost);
                } catch (CelCompileException e) {
                    errs.add(FieldError.invalid(p + ".messageExpression", messageExpression,
                            "messageExpression compilation failed: " + e.getMessage()));
                }
            }
            if (compiled && uncorrelatable != null && rule.contains("oldSelf")) {
                errs.add(FieldError.invalid(p + ".rule", rule, "oldSelf cannot be used on the uncorrelatable "
                        + "portion of the schema within " + uncorrelatable));
            }
        }
        boolean map = "object".equals(s.path("type").asText()) && s.has("additionalProperties");
        Long inMap = times(cardinality, map ? s.get("maxProperties") : null, map);
        Long inList = times(cardinality, s.get("maxItems"), "array".equals(s.path("type").asText()));
        String atomicMap = uncorrelatable == null && "atomic".equals(s.path("x-kubernetes-map-type").asText()) ? path : uncorrelatable;
        for (Iterator<Map.Entry<String, JsonNode>> it = s.path("properties").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            compileErrors(e.getValue(), path + ".properties[" + e.getKey() + "]", atomicMap, false, inMap, total, errs);
        }
        String notMapList = uncorrelatable == null && !"map".equals(s.path("x-kubernetes-list-type").asText()) ? path : uncorrelatable;
        compileErrors(s.path("items"), path + ".items", notMapList, false, inList, total, errs);
        compileErrors(s.path("additionalProperties"), path + ".additionalProperties", atomicMap, false, inMap, total, errs);
    }

    /**
     * The cardinality of a child of a schema holding {@code cardinality} values: times its
     * {@code limit} when it is a list or map ({@code many}), unbounded when that has no limit.
     */
    private static Long times(Long cardinality, JsonNode limit, boolean many) {
        if (cardinality == null || !many) {
            return cardinality;
        }
        return limit == null ? null : TotalCost.times(cardinality, Math.max(0, limit.asLong()));
    }

    private void collect(JsonNode s) {
        if (!s.isObject()) {
            return;
        }
        List<Rule> compiled = new ArrayList<>();
        for (JsonNode r : s.path("x-kubernetes-validations")) {
            try {
                CelExpression rule = ENV.compile(r.path("rule").asText(""));
                CelExpression message = null;
                if (!r.path("messageExpression").asText("").isBlank()) {
                    try {
                        message = ENV.compile(r.path("messageExpression").asText());
                    } catch (CelCompileException e) {
                        // the CRD's validation refuses it; an older CRD keeps its message
                    }
                }
                compiled.add(new Rule(r, rule, message, r.path("rule").asText().contains("oldSelf")));
            } catch (CelCompileException e) {
                // refused by the CRD's validation
            }
        }
        if (!compiled.isEmpty()) {
            rules.put(s, compiled);
        }
        for (JsonNode p : s.path("properties")) {
            collect(p);
        }
        collect(s.path("items"));
        collect(s.path("additionalProperties"));
    }

    /** Runs every rule on {@code obj}, with {@code old} (null on create) for transition rules and ratcheting. */
    public Result validate(JsonNode obj, JsonNode old) {
        Result result = new Result(new ArrayList<>(), new ArrayList<>());
        if (any) {
            long[] budget = {CelEnvironment.RUNTIME_COST_BUDGET};
            walk(obj, old, schema, "", result, budget);
        }
        return result;
    }

    private void walk(JsonNode value, JsonNode old, JsonNode s, String path, Result result, long[] budget) {
        if (value == null || value.isNull() || value.isMissingNode() || !s.isObject() || budget[0] < 0) {
            return;
        }
        List<Rule> here = rules.get(s);
        if (here != null) {
            run(here, value, old, s, path, result, budget);
        }
        if (value.isObject()) {
            JsonNode props = s.path("properties");
            JsonNode additional = s.path("additionalProperties");
            for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                JsonNode ps = props.has(f.getKey()) ? props.get(f.getKey()) : additional;
                JsonNode oldValue = old != null && old.isObject() ? old.get(f.getKey()) : null;
                walk(f.getValue(), oldValue, ps, path.isEmpty() ? f.getKey() : path + "." + f.getKey(), result, budget);
            }
        } else if (value.isArray()) {
            Map<List<JsonNode>, JsonNode> oldByKey = correlated(old, s);
            for (int i = 0; i < value.size(); i++) {
                JsonNode item = value.get(i);
                JsonNode oldItem = oldByKey == null ? null : oldByKey.get(key(item, s));
                walk(item, oldItem, s.path("items"), path + "[" + i + "]", result, budget);
            }
        }
    }

    private void run(List<Rule> here, JsonNode value, JsonNode old, JsonNode s, String path, Result result, long[] budget) {
        String type = s.path("type").asText("");
        Object shown = value.isObject() || value.isArray() ? null
                : value.isTextual() ? value.asText() : value.isIntegralNumber() ? (Object) value.asLong()
                : value.isNumber() ? (Object) value.asDouble() : value.isBoolean() ? (Object) value.asBoolean() : null;
        Object typeValue = type.isEmpty() ? null : type;
        boolean unchanged = old != null && old.equals(value);
        // the values are converted once for all the rules of the node
        Map<String, Object> vars = new HashMap<>();
        vars.put("self", CelValues.fromJson(value, s));
        vars.put("oldSelf", old == null ? null : CelValues.fromJson(old, s));
        for (Rule rule : here) {
            if (rule.usesOldSelf() && old == null) {
                continue;
            }
            boolean ok;
            try {
                CelExpression.Result r = rule.rule().evaluate(vars, Math.min(CelEnvironment.PER_CALL_COST_LIMIT, budget[0]));
                budget[0] -= r.cost();
                ok = Boolean.TRUE.equals(r.value());
                if (!(r.value() instanceof Boolean)) {
                    result.errors().add(FieldError.invalid(path(path), typeValue, "rule did not evaluate to a bool: "
                            + rule.errorString()));
                    continue;
                }
            } catch (CelEvaluationError e) {
                if (e.costLimitExceeded()) {
                    budget[0] = -1;
                    result.errors().add(FieldError.invalid(path(path), typeValue, "'" + e.getMessage()
                            + "': no further validation rules will be run due to call cost exceeds limit for rule: "
                            + rule.errorString()));
                    return;
                }
                result.errors().add(FieldError.invalid(path(path), typeValue, e.getMessage() + " evaluating rule: "
                        + rule.errorString()));
                continue;
            }
            if (ok) {
                continue;
            }
            String detail = null;
            if (rule.messageExpression() != null) {
                try {
                    Object m = rule.messageExpression().evaluate(vars, CelEnvironment.PER_CALL_COST_LIMIT).value();
                    if (m instanceof String text && !text.isBlank() && !text.contains("\n")) {
                        detail = text.strip();
                    }
                } catch (CelEvaluationError e) {
                    // kube falls back to the message
                }
            }
            if (detail == null) {
                String message = rule.source().path("message").asText("").strip();
                detail = message.isEmpty() ? "failed rule: " + rule.errorString() : message;
            }
            String fieldPath = rule.source().path("fieldPath").asText("").strip();
            String at = path(path) + (fieldPath.isEmpty() ? "" : fieldPath.startsWith(".") ? fieldPath : "." + fieldPath);
            if (path.isEmpty() && !fieldPath.isEmpty()) {
                at = fieldPath.startsWith(".") ? fieldPath.substring(1) : fieldPath;
            }
            FieldError error = switch (rule.source().path("reason").asText("")) {
                case "FieldValueForbidden" -> FieldError.forbidden(at, detail);
                case "FieldValueRequired" -> FieldError.required(at, detail);
                case "FieldValueDuplicate" -> FieldError.duplicate(at, shown);
                default -> FieldError.invalid(at, shown, detail);
            };
            if (!rule.usesOldSelf() && unchanged) {
                result.warnings().add(error.message());
            } else {
                result.errors().add(error);
            }
        }
    }

    /** The old items of a map-list by their keys; null when the list's items do not correlate. */
    private static Map<List<JsonNode>, JsonNode> correlated(JsonNode old, JsonNode s) {
        if (old == null || !old.isArray() || !"map".equals(s.path("x-kubernetes-list-type").asText())) {
            return null;
        }
        Map<List<JsonNode>, JsonNode> byKey = new HashMap<>();
        old.forEach(item -> byKey.put(key(item, s), item));
        return byKey;
    }

    private static List<JsonNode> key(JsonNode item, JsonNode s) {
        List<JsonNode> key = new ArrayList<>();
        s.path("x-kubernetes-list-map-keys").forEach(k -> key.add(item.path(k.asText())));
        return key;
    }

    /** Rules of the object itself report kube's nil path, {@code <nil>}. */
    private static String path(String path) {
        return path.isEmpty() ? "<nil>" : path;
    }
}
