package io.kubelix.resource.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.GoSyntax;

import java.util.ArrayList;
import java.util.List;

import static io.kubelix.resource.flowcontrol.FlowSchemaValidation.present;

/**
 * kube's ValidatePriorityLevelConfiguration (pkg/apis/flowcontrol/validation) for a defaulted v1 object
 * written through v1, with kube's field paths and messages. The Store has validated the metadata.
 */
final class PriorityLevelValidation {
    static final List<String> TYPES = List.of("Exempt", "Limited");
    static final List<String> LIMIT_RESPONSE_TYPES = List.of("Queue", "Reject");
    static final int MAX_QUEUES = 10_000_000;
    /** shufflesharding.MaxHashBits: the bits of a 64-bit hash a dealer may use. */
    static final int MAX_HASH_BITS = 60;

    private PriorityLevelValidation() {
    }

    /** ValidatePriorityLevelConfiguration (the same on update): the spec, the mandatory levels' and the status. */
    static List<FieldError> validate(JsonNode pl) {
        String name = pl.path("metadata").path("name").asText("");
        JsonNode spec = pl.path("spec");
        List<FieldError> errs = new ArrayList<>(spec(name, spec));
        errs.addAll(mandatory(name, spec));
        errs.addAll(StatusValidation.conditions(pl.path("status")));
        return errs;
    }

    private static List<FieldError> spec(String name, JsonNode spec) {
        List<FieldError> errs = new ArrayList<>();
        String type = spec.path("type").asText("");
        if (MandatoryConfiguration.EXEMPT.equals(name) != "Exempt".equals(type)) {
            errs.add(FieldError.invalid("spec.type", type, "type must be 'Exempt' if and only if name is 'exempt'"));
        }
        switch (type) {
            case "Exempt" -> {
                if (present(spec.path("limited"))) {
                    errs.add(FieldError.forbidden("spec.limited", "must be nil if the type is not Limited"));
                }
                if (present(spec.path("exempt"))) {
                    errs.addAll(exempt(spec.path("exempt")));
                }
            }
            case "Limited" -> {
                if (present(spec.path("exempt"))) {
                    errs.add(FieldError.forbidden("spec.exempt", "must be nil if the type is Limited"));
                }
                if (present(spec.path("limited"))) {
                    errs.addAll(limited(spec.path("limited")));
                } else {
                    errs.add(FieldError.required("spec.limited", "must not be empty when type is Limited"));
                }
            }
            default -> errs.add(FieldError.notSupported("spec.type", type, TYPES));
        }
        return errs;
    }

    /** ValidateExemptPriorityLevelConfiguration. */
    private static List<FieldError> exempt(JsonNode exempt) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode shares = exempt.path("nominalConcurrencyShares");
        if (present(shares) && shares.asInt() < 0) {
            errs.add(FieldError.invalid("spec.exempt.nominalConcurrencyShares", shares.asInt(), "must be a non-negative integer"));
        }
        errs.addAll(lendablePercent(exempt, "spec.exempt.lendablePercent"));
        return errs;
    }

    /**
     * ValidateLimitedPriorityLevelConfiguration as v1 requests get it: zero shares are allowed (kube's
     * ZeroLimitedNominalConcurrencyShares), negative ones are not.
     */
    private static List<FieldError> limited(JsonNode limited) {
        List<FieldError> errs = new ArrayList<>();
        int shares = limited.path("nominalConcurrencyShares").asInt(0);
        if (shares < 0) {
            errs.add(FieldError.invalid("spec.limited.nominalConcurrencyShares", shares, "must be a non-negative integer"));
        }
        errs.addAll(limitResponse(limited.path("limitResponse")));
        errs.addAll(lendablePercent(limited, "spec.limited.lendablePercent"));
        JsonNode borrowing = limited.path("borrowingLimitPercent");
        if (present(borrowing) && borrowing.asInt() < 0) {
            errs.add(FieldError.invalid("spec.limited.borrowingLimitPercent", borrowing.asInt(),
                    "if specified, must be a non-negative integer"));
        }
        return errs;
    }

    private static List<FieldError> lendablePercent(JsonNode parent, String path) {
        JsonNode percent = parent.path("lendablePercent");
        if (present(percent) && (percent.asInt() < 0 || percent.asInt() > 100)) {
            return List.of(FieldError.invalid(path, percent.asInt(), "must be between 0 and 100, inclusive"));
        }
        return List.of();
    }

    /** ValidateLimitResponse: queuing parameters exactly when the type is Queue. */
    private static List<FieldError> limitResponse(JsonNode response) {
        String path = "spec.limited.limitResponse";
        String type = response.path("type").asText("");
        JsonNode queuing = response.path("queuing");
        return switch (type) {
            case "Reject" -> present(queuing)
                    ? List.of(FieldError.forbidden(path + ".queuing", "must be nil if limited.limitResponse.type is not Limited"))
                    : List.of();
            case "Queue" -> present(queuing) ? queuing(queuing, path + ".queuing")
                    : List.of(FieldError.required(path + ".queuing", "must not be empty if limited.limitResponse.type is Limited"));
            default -> List.of(FieldError.notSupported(path + ".type", type, LIMIT_RESPONSE_TYPES));
        };
    }

    /** ValidatePriorityLevelQueuingConfiguration, with shuffle sharding's entropy bound on the hand. */
    private static List<FieldError> queuing(JsonNode queuing, String path) {
        List<FieldError> errs = new ArrayList<>();
        int queueLengthLimit = queuing.path("queueLengthLimit").asInt(0);
        int queues = queuing.path("queues").asInt(0);
        int handSize = queuing.path("handSize").asInt(0);
        if (queueLengthLimit <= 0) {
            errs.add(FieldError.invalid(path + ".queueLengthLimit", queueLengthLimit, "must be positive"));
        }
        if (queues <= 0) {
            errs.add(FieldError.invalid(path + ".queues", queues, "must be positive"));
        } else if (queues > MAX_QUEUES) {
            errs.add(FieldError.invalid(path + ".queues", queues, "must not be greater than " + MAX_QUEUES));
        }
        if (handSize <= 0) {
            errs.add(FieldError.invalid(path + ".handSize", handSize, "must be positive"));
        } else if (handSize > queues) {
            errs.add(FieldError.invalid(path + ".handSize", handSize, "should not be greater than queues (" + queues + ")"));
        } else if (requiredEntropyBits(queues, handSize) > MAX_HASH_BITS) {
            errs.add(FieldError.invalid(path + ".handSize", handSize, "required entropy bits of deckSize " + queues
                    + " and handSize " + handSize + " should not be greater than " + MAX_HASH_BITS));
        }
        return errs;
    }

    /** shufflesharding.RequiredEntropyBits: the hash bits needed to deal a hand of handSize from deckSize cards. */
    static int requiredEntropyBits(int deckSize, int handSize) {
        return (int) Math.ceil(log2(deckSize) * handSize);
    }

    /** Go's math.Log2, exact for powers of two, so that 64 queues and a hand of 10 need 60 bits, not 61. */
    private static double log2(int x) {
        if (Integer.bitCount(x) == 1) {
            return Integer.numberOfTrailingZeros(x);
        }
        int exp = Math.getExponent((double) x) + 1;
        return Math.log(x / Math.pow(2, exp)) / Math.log(2) + exp;
    }

    /**
     * The mandatory levels keep their fixed spec; the {@code exempt} level's {@code spec.exempt} may be
     * changed (ValidateIfMandatoryPriorityLevelConfigurationObject).
     */
    private static List<FieldError> mandatory(String name, JsonNode spec) {
        JsonNode fixed = MandatoryConfiguration.PRIORITY_LEVEL_SPECS.get(name);
        if (fixed == null) {
            return List.of();
        }
        if (MandatoryConfiguration.EXEMPT.equals(name)) {
            boolean same = fixed.path("type").asText().equals(spec.path("type").asText(""))
                    && !present(spec.path("limited"));
            return same ? List.of() : List.of(FieldError.invalid("spec", new GoSyntax(spec.toString()),
                    "spec of '" + name + "' except the 'spec.exempt' field must equal the fixed value"));
        }
        return MandatoryConfiguration.semanticallyEqual(spec, fixed) ? List.of() : List.of(FieldError.invalid("spec",
                new GoSyntax(spec.toString()), "spec of '" + name + "' must equal the fixed value"));
    }
}
