package io.kubelix.resource.batch;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CronScheduleTest {

    @Test
    void errorsReadAsRobfigCronWritesThem() {
        assertEquals(Optional.of("empty spec string"), CronSchedule.check(""));
        assertEquals(Optional.of("too many hyphens: 1-2-3"), CronSchedule.check("1-2-3 * * * *"));
        assertEquals(Optional.of("too many slashes: */2/3"), CronSchedule.check("*/2/3 * * * *"));
        assertEquals(Optional.of("beginning of range (0) below minimum (1): 0"), CronSchedule.check("* * 0 * *"));
        assertEquals(Optional.of("beginning of range (5) beyond end of range (3): 5-3"), CronSchedule.check("5-3 * * * *"));
        assertEquals(Optional.of("step of range should be a positive number: */0"), CronSchedule.check("*/0 * * * *"));
        assertEquals(Optional.of("failed to parse int from x: strconv.Atoi: parsing \"x\": invalid syntax"),
                CronSchedule.check("x * * * *"));
        assertEquals(Optional.of("expected exactly 5 fields, found 6: [0 0 * * * *]"), CronSchedule.check("0 0 * * * *"));
        assertEquals(Optional.of("failed to parse duration @every 5d: time: unknown unit \"d\" in duration \"5d\""),
                CronSchedule.check("@every 5d"));
        assertEquals(Optional.of("failed to parse duration @every 5: time: missing unit in duration \"5\""),
                CronSchedule.check("@every 5"));
        assertEquals(Optional.of("provided bad location Nowhere: unknown time zone Nowhere"),
                CronSchedule.check("CRON_TZ=Nowhere 0 * * * *"));
    }

    @Test
    void standardFormsParse() {
        for (String s : new String[] {"* * * * *", "0,15,30,45 * * * *", "5/15 * * * *", "0 0 1 */3 *", "@yearly",
                "@annually", "@monthly", "@weekly", "@midnight", "@every 90s", "@every 1.5h", "CRON_TZ=UTC 0 * * * *",
                "0 0 * DEC SAT"}) {
            assertEquals(Optional.empty(), CronSchedule.check(s), s);
        }
    }
}
