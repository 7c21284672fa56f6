package io.kubelix.resource.batch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.HumanDuration;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import org.junit.jupiter.api.Test;


import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.kubelix.resource.batch.Fixtures.create;
import static io.kubelix.resource.batch.Fixtures.cronJob;
import static io.kubelix.resource.batch.Fixtures.job;
import static io.kubelix.resource.batch.Fixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BatchPrintersTest {

    private static List<String> headers(List<TableColumn> columns) {
        return columns.stream().map(c -> c.name() + (c.priority() > 0 ? "*" : "")).toList();
    }

    private static List<Object> cells(List<TableColumn> columns, ObjectNode o) {
        List<Object> out = new ArrayList<>();
        columns.stream().filter(c -> !c.isAge()).forEach(c -> out.add(c.cell().apply(o)));
        return out;
    }

    @Test
    void jobColumnsAndCells() {
        ObjectNode j = job("pi");
        create(new JobStrategy(), j);
        List<TableColumn> columns = BatchPrinters.jobColumns();
        assertEquals(List.of("Name", "Status", "Completions", "Duration", "Age", "Containers*", "Images*", "Selector*"),
                headers(columns));
        assertEquals(List.of("pi", "Running", "0/1", "", "pi", "busybox",
                "batch.kubernetes.io/controller-uid=" + Fixtures.UID), cells(columns, j));

        j.set("status", json("{'succeeded':1,'startTime':'2024-01-01T00:00:00Z','completionTime':'2024-01-01T00:03:25Z',"
                + "'conditions':[{'type':'Complete','status':'True'}]}"));
        assertEquals(List.of("pi", "Complete", "1/1", "3m25s"), cells(columns, j).subList(0, 4));

        j.set("status", json("{'startTime':'2024-01-01T00:00:00Z','conditions':[{'type':'Suspended','status':'True'}]}"));
        assertEquals("Suspended", BatchPrinters.jobStatus(j));
        assertEquals(Instant.parse("2024-01-01T00:00:00Z"), BatchPrinters.duration(j), "a running job's duration is its age");
    }

    @Test
    void cronJobColumnsAndCells() {
        ObjectNode c = cronJob("hello", "*/1 * * * *");
        create(new CronJobStrategy(), c);
        List<TableColumn> columns = BatchPrinters.cronJobColumns();
        assertEquals(List.of("Name", "Schedule", "Timezone", "Suspend", "Active", "Last Schedule", "Age", "Containers*",
                "Images*", "Selector*"), headers(columns));
        assertEquals(List.of("hello", "*/1 * * * *", "<none>", "False", 0L, "<none>", "hello", "busybox", "<none>"),
                cells(columns, c));
        c.set("status", json("{'active':[{'name':'a'},{'name':'b'}],'lastScheduleTime':'2024-01-01T00:00:00Z'}"));
        ((ObjectNode) c.path("spec")).put("timeZone", "Etc/UTC");
        assertEquals(List.of("hello", "*/1 * * * *", "Etc/UTC", "False", 2L, Instant.parse("2024-01-01T00:00:00Z")),
                cells(columns, c).subList(0, 6));
    }

    @Test
    void humanDurationAsKubectlShowsIt() {
        assertEquals("45s", HumanDuration.format(Duration.ofSeconds(45)));
        assertEquals("119s", HumanDuration.format(Duration.ofSeconds(119)));
        assertEquals("5m", HumanDuration.format(Duration.ofMinutes(5)));
        assertEquals("3h5m", HumanDuration.format(Duration.ofMinutes(185)));
        assertEquals("10h", HumanDuration.format(Duration.ofHours(10)));
        assertEquals("3d2h", HumanDuration.format(Duration.ofHours(74)));
        assertEquals("30d", HumanDuration.format(Duration.ofDays(30)));
    }

    @Test
    void jobsAndCronJobsAreInCategoryAllWithKubesShortNames() {
        StoreSpec jobs = BatchRESTStorageProvider.jobSpec();
        StoreSpec cronJobs = BatchRESTStorageProvider.cronJobSpec();
        assertEquals(List.of("all"), jobs.categories());
        assertEquals(List.of("all"), cronJobs.categories());
        assertEquals(List.of(), jobs.shortNames());
        assertEquals(List.of("cj"), cronJobs.shortNames());
        assertTrue(jobs.generation() && cronJobs.generation() && jobs.namespaced() && cronJobs.namespaced());
        ObjectNode done = job("pi");
        done.set("status", json("{'succeeded':2}"));
        assertEquals("2", jobs.selectableFields().get("status.successful").apply(done));
    }
}
