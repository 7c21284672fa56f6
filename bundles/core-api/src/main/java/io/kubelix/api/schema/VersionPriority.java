package io.kubelix.api.schema;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * kube's CompareKubeAwareVersionStrings, the order of a group's versions in discovery (a CRD's,
 * APIServices' of equal priority), as a comparator that puts the preferred version first: GA
 * versions ({@code v2}, {@code v1}) before beta before alpha, higher numbers first within each,
 * then versions that do not look like kube versions, alphabetically.
 */
public final class VersionPriority {
    private static final Pattern KUBE = Pattern.compile("^v(\\d+)(?:(alpha|beta)(\\d+))?$");

    private VersionPriority() {
    }

    /** Negative when {@code a} is preferred over {@code b}. */
    public static int compare(String a, String b) {
        Matcher ma = KUBE.matcher(a);
        Matcher mb = KUBE.matcher(b);
        boolean ka = ma.matches();
        boolean kb = mb.matches();
        if (!ka || !kb) {
            if (ka != kb) {
                return ka ? -1 : 1;
            }
            return a.compareTo(b);
        }
        int ra = rank(ma.group(2));
        int rb = rank(mb.group(2));
        if (ra != rb) {
            return Integer.compare(rb, ra);
        }
        int major = Long.compare(Long.parseLong(mb.group(1)), Long.parseLong(ma.group(1)));
        if (major != 0 || ma.group(3) == null) {
            return major;
        }
        return Long.compare(Long.parseLong(mb.group(3)), Long.parseLong(ma.group(3)));
    }

    private static int rank(String stability) {
        return stability == null ? 2 : stability.equals("beta") ? 1 : 0;
    }
}
