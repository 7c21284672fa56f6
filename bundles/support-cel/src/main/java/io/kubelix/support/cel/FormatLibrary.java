package io.kubelix.support.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.OptionalType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import io.kubelix.api.validation.NameValidators;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * kube's format library (k8s.io/apiserver/pkg/cel/library/format.go): {@code format.<name>()} for each
 * named format, {@code format.named(string)} (an optional format) and {@code <format>.validate(string)},
 * which is {@code optional.none()} for a valid string and the validation's messages otherwise, worded
 * as kube's validators word them.
 */
final class FormatLibrary {
    static final OpaqueType FORMAT = OpaqueType.create("kubernetes.NamedFormat");
    private static final Pattern UUID = Pattern.compile(
            "(?i)^(?:urn:uuid:)?\\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}}?$");

    private FormatLibrary() {
    }

    /** A CEL {@code kubernetes.NamedFormat}: a name and its validation. */
    record NamedFormat(String name, Function<String, List<String>> validate) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** The formats by the name CEL calls them, as kube's ConstantFormats. */
    static final Map<String, NamedFormat> FORMATS = formats();

    private static Map<String, NamedFormat> formats() {
        Map<String, NamedFormat> m = new LinkedHashMap<>();
        m.put("dns1123Label", new NamedFormat("DNS1123Label", NameValidators::isDNS1123Label));
        m.put("dns1123Subdomain", new NamedFormat("DNS1123Subdomain", NameValidators::isDNS1123Subdomain));
        m.put("dns1035Label", new NamedFormat("DNS1035Label", NameValidators::isDNS1035Label));
        m.put("qualifiedName", new NamedFormat("QualifiedName", NameValidators::isQualifiedName));
        m.put("dns1123LabelPrefix", new NamedFormat("DNS1123LabelPrefix", s -> NameValidators.isDNS1123Label(maskTrailingDash(s))));
        m.put("dns1123SubdomainPrefix", new NamedFormat("DNS1123SubdomainPrefix",
                s -> NameValidators.isDNS1123Subdomain(maskTrailingDash(s))));
        m.put("dns1035LabelPrefix", new NamedFormat("DNS1035LabelPrefix", s -> NameValidators.isDNS1035Label(maskTrailingDash(s))));
        m.put("labelValue", new NamedFormat("LabelValue", NameValidators::isValidLabelValue));
        m.put("uri", new NamedFormat("URI", s -> UrlLibrary.parseRequestURI(s) != null ? List.of()
                : List.of("parse \"" + s + "\": invalid URI for request")));
        m.put("uuid", new NamedFormat("uuid", s -> UUID.matcher(s).matches() ? List.of() : List.of("does not match the UUID format")));
        m.put("byte", new NamedFormat("byte", s -> isBase64(s) ? List.of() : List.of("invalid base64")));
        m.put("date", new NamedFormat("date", s -> isDate(s) ? List.of() : List.of("invalid date")));
        m.put("datetime", new NamedFormat("datetime", s -> isDateTime(s) ? List.of() : List.of("invalid datetime")));
        return Map.copyOf(m);
    }

    static List<CelFunctionDecl> declarations() {
        List<CelFunctionDecl> decls = new ArrayList<>();
        decls.add(CelFunctionDecl.newFunctionDeclaration("format.named",
                CelOverloadDecl.newGlobalOverload("format-named", OptionalType.create(FORMAT), SimpleType.STRING)));
        decls.add(CelFunctionDecl.newFunctionDeclaration("validate",
                CelOverloadDecl.newMemberOverload("format-validate", OptionalType.create(ListType.create(SimpleType.STRING)),
                        FORMAT, SimpleType.STRING)));
        FORMATS.keySet().forEach(name -> decls.add(CelFunctionDecl.newFunctionDeclaration("format." + name,
                CelOverloadDecl.newGlobalOverload("format." + name, FORMAT))));
        return decls;
    }

    static List<CelFunctionBinding> bindings() {
        List<CelFunctionBinding> bindings = new ArrayList<>();
        bindings.add(CelFunctionBinding.from("format-named", String.class, name -> Optional.ofNullable(FORMATS.get(name))));
        bindings.add(CelFunctionBinding.from("format-validate", NamedFormat.class, String.class, (f, s) -> {
            List<String> errs = f.validate().apply(s);
            return errs.isEmpty() ? Optional.empty() : Optional.of(List.copyOf(errs));
        }));
        FORMATS.forEach((name, f) -> bindings.add(CelFunctionBinding.from("format." + name, List.of(), args -> f)));
        return bindings;
    }

    /** kube's prefix validation: a name that is only a prefix may end in a dash. */
    private static String maskTrailingDash(String s) {
        return s.length() > 1 && s.endsWith("-") ? s.substring(0, s.length() - 1) + "a" : s;
    }

    private static boolean isBase64(String s) {
        try {
            Base64.getDecoder().decode(s);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean isDate(String s) {
        try {
            LocalDate.parse(s);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static boolean isDateTime(String s) {
        try {
            OffsetDateTime.parse(s.replace(' ', 'T').replace('t', 'T').replace('z', 'Z'));
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }
}
