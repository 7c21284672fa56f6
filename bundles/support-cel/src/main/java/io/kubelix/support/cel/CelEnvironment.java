package io.kubelix.support.cel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;

import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A CEL environment (cel-go's {@code cel.Env}, as kube's {@code environment.EnvSet} builds it):
 * the variables expressions may use, each with its type, the standard macros ({@code has},
 * {@code all}, {@code exists}, {@code exists_one}, {@code map}, {@code filter}), the extension
 * libraries kube enables that cel-java has (strings, sets, optional values, two-variable
 * comprehensions; math and encoders too), and kube's own libraries: regex and lists
 * ({@link KubernetesLibrary}), quantities ({@link QuantityLibrary}), IPs and CIDRs
 * ({@link NetworkLibrary}), URLs ({@link UrlLibrary}) and named formats ({@link FormatLibrary}). One
 * environment compiles any number of expressions; it and the expressions are safe to share between
 * threads.
 *
 * <pre>{@code
 * CelEnvironment env = CelEnvironment.builder().variable("self", CelEnvironment.Type.DYN).build();
 * CelExpression rule = env.compile("self.replicas <= self.maxReplicas");
 * boolean ok = rule.evaluateBoolean(Map.of("self", jsonNode), CelEnvironment.PER_CALL_COST_LIMIT);
 * }</pre>
 */
public final class CelEnvironment {
    /** kube's per-expression runtime cost limit (celconfig.PerCallLimit). */
    public static final long PER_CALL_COST_LIMIT = 1_000_000L;
    /** kube's runtime cost budget for all the rules of one object (celconfig.RuntimeCELCostBudget). */
    public static final long RUNTIME_COST_BUDGET = 10_000_000L;
    /** kube's limit on the iterations of one comprehension, well under the cost limit. */
    private static final int MAX_ITERATIONS = 1_000_000;

    /** The types a variable may be declared with. */
    public enum Type {
        /** Any JSON value, checked when evaluated (kube declares unstructured objects this way when no schema says more). */
        DYN(SimpleType.DYN),
        BOOL(SimpleType.BOOL),
        INT(SimpleType.INT),
        DOUBLE(SimpleType.DOUBLE),
        STRING(SimpleType.STRING),
        /** A list of any values. */
        LIST(ListType.create(SimpleType.DYN)),
        /** A map from strings to any values (a JSON object). */
        MAP(MapType.create(SimpleType.STRING, SimpleType.DYN)),
        /** kube's {@code authorizer}: bind a {@link CelAuthorizer}. */
        AUTHORIZER(AuthorizerLibrary.AUTHORIZER),
        /** kube's {@code authorizer.requestResource}: bind a {@link CelAuthorizer.ResourceCheck}. */
        RESOURCE_CHECK(AuthorizerLibrary.RESOURCE_CHECK);

        final CelType celType;

        Type(CelType celType) {
            this.celType = celType;
        }
    }

    private static final Pattern CANDIDATES = Pattern.compile("(?m) \\(candidates: .*$");

    private final Cel cel;
    private final Map<String, Type> variables;
    /** The object types of mutating admission policies, or null when the environment has none. */
    private final MutationTypes mutationTypes;

    private CelEnvironment(Cel cel, Map<String, Type> variables, MutationTypes mutationTypes) {
        this.cel = cel;
        this.variables = Map.copyOf(variables);
        this.mutationTypes = mutationTypes;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The declared variables and their types. */
    public Map<String, Type> variables() {
        return variables;
    }

    /**
     * Parses and type-checks {@code source} against the declared variables.
     *
     * @throws CelCompileException with cel-java's message (positions and all) when it does not compile
     */
    public CelExpression compile(String source) throws CelCompileException {
        Objects.requireNonNull(source, "source");
        try {
            CelAbstractSyntaxTree ast;
            if (mutationTypes == null) {
                ast = cel.compile(source).getAst();
            } else {
                CelAbstractSyntaxTree parsed = cel.parse(source).getAst();
                ObjectLiterals.fieldsByType(parsed.getExpr()).forEach(mutationTypes::declareFields);
                ast = ObjectLiterals.rewrite(cel.check(parsed).getAst());
            }
            return new CelExpression(source, ast, cel.createProgram(ast));
        } catch (CelValidationException e) {
            // cel-go (whose messages kube quotes) does not list an overload's candidates
            throw new CelCompileException(CANDIDATES.matcher(e.getMessage()).replaceAll(""), e);
        } catch (CelEvaluationException e) {
            throw new CelCompileException(e.getMessage(), e);
        }
    }

    /** Declares variables, then builds the environment. */
    public static final class Builder {
        private final Map<String, Type> variables = new LinkedHashMap<>();
        private final Map<String, CelType> typed = new LinkedHashMap<>();
        private final SchemaDeclTypes schemaTypes = new SchemaDeclTypes();
        /** Variables of one schema share its types, so {@code self == oldSelf} type-checks. */
        private final Map<JsonNode, CelType> schemas = new IdentityHashMap<>();
        private boolean objectLiterals;

        private Builder() {
        }

        public Builder variable(String name, Type type) {
            variables.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(type, "type"));
            return this;
        }

        /**
         * Declares a variable of the type kube gives an OpenAPI schema ({@link SchemaDeclTypes}), so
         * expressions are checked against its fields; bindings are JSON as for {@link Type#DYN}.
         *
         * @param resourceRoot the schema is of a whole resource (it has {@code apiVersion}, {@code kind}
         *                     and {@code metadata.name} even when it does not declare them)
         */
        public Builder variable(String name, JsonNode schema, boolean resourceRoot) {
            Objects.requireNonNull(name, "name");
            variables.put(name, Type.DYN);
            typed.put(name, schemas.computeIfAbsent(schema,
                    s -> schemaTypes.declare("selfType" + schemas.size(), s, resourceRoot)));
            return this;
        }

        /**
         * Declares an object variable whose fields have the result types of {@code fields}, as kube's
         * composition environment declares {@code variables} (a field whose expression is null, one
         * that did not compile, is {@code dyn}). The expressions must come from environments of this
         * builder, so that the object types they name are known here.
         */
        public Builder variable(String name, String typeName, Map<String, CelExpression> fields) {
            Objects.requireNonNull(name, "name");
            Map<String, CelType> types = new LinkedHashMap<>();
            fields.forEach((field, e) -> types.put(field, e == null ? null : e.celResultType()));
            variables.put(name, Type.DYN);
            typed.put(name, schemaTypes.declareObject(typeName, types));
            return this;
        }

        /**
         * Adds what kube's mutating admission policies have: the {@code Object} and {@code JSONPatch}
         * types of {@link MutationTypes}, whose literals evaluate to maps of their fields
         * ({@link ObjectLiterals}), and {@code jsonpatch.escapeKey} ({@link JsonPatchLibrary}).
         */
        public Builder objectLiterals() {
            objectLiterals = true;
            return this;
        }

        public CelEnvironment build() {
            CelOptions options = CelOptions.current()
                    .comprehensionMaxIterations(MAX_ITERATIONS)
                    .enableRegexPartialMatch(true)
                    .build();
            var builder = CelFactory.standardCelBuilder()
                    .setOptions(options)
                    .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                    .addCompilerLibraries(CelExtensions.strings(), CelExtensions.math(options), CelExtensions.encoders(),
                            CelExtensions.sets(options), CelExtensions.optional(), CelExtensions.comprehensions())
                    .addRuntimeLibraries(CelExtensions.strings(), CelExtensions.math(options), CelExtensions.encoders(),
                            CelExtensions.sets(options), CelExtensions.optional(), CelExtensions.comprehensions())
                    .addFunctionDeclarations(KubernetesLibrary.declarations())
                    .addFunctionBindings(KubernetesLibrary.bindings())
                    .addFunctionDeclarations(QuantityLibrary.declarations())
                    .addFunctionBindings(QuantityLibrary.bindings())
                    .addFunctionDeclarations(NetworkLibrary.declarations())
                    .addFunctionBindings(NetworkLibrary.bindings())
                    .addFunctionDeclarations(UrlLibrary.declarations())
                    .addFunctionBindings(UrlLibrary.bindings())
                    .addFunctionDeclarations(FormatLibrary.declarations())
                    .addFunctionBindings(FormatLibrary.bindings());
            if (variables.containsValue(Type.AUTHORIZER)) {
                builder.addFunctionDeclarations(AuthorizerLibrary.declarations())
                        .addFunctionBindings(AuthorizerLibrary.bindings());
            }
            variables.forEach((name, type) -> builder.addVar(name, typed.getOrDefault(name, type.celType)));
            MutationTypes mutationTypes = null;
            if (objectLiterals) {
                mutationTypes = new MutationTypes(typed.isEmpty() ? null : schemaTypes);
                builder.addFunctionDeclarations(JsonPatchLibrary.declarations())
                        .addFunctionBindings(JsonPatchLibrary.bindings())
                        .setTypeProvider(mutationTypes);
            } else if (!typed.isEmpty()) {
                builder.setTypeProvider(schemaTypes);
            }
            return new CelEnvironment(builder.build(), variables, mutationTypes);
        }
    }
}
