package io.kubelix.bench;

/** Entry point: {@code kubelix-bench <scenario> --server URL (--ca FILE | --insecure) (--token T | --kubeconfig FILE) ...}. */
public final class Main {
    private static final String USAGE = """
            usage: java -jar kubelix-bench.jar <scenario> [flags]

            scenarios:
              watch-fanout   --watchers 1000 --updates 500 --rate 100 --objects 10 --drain-seconds 30 [--server-pid PID]
              idle-watchers  --watchers 10000 --rate 50 (GETs/s) --seconds 60 --server-pid PID
              list           --count 5000 --iterations 100 --warmup 30
              crud           --rate 50 (cycles/s) --seconds 60
              gc-cascade     --dependents 10000 --idle-seconds 30 --concurrency 32 [--server-pid PID]
              writes         --count 2000 --in-flight 8 --rounds 3 --bytes 1024 [--etcd-metrics URL --etcd-pid PID] [--server-pid PID]
              authz          --roles 1000 --seconds 10 --rounds 3 --in-flight 16 [--user-token T --user NAME]
              proxy-get      --path P --direct-server URL --direct-ca FILE --direct-token T --warmup 2000 --rounds 5000
                             [--baseline-server URL --baseline-ca FILE --baseline-token T]
              custom-resources --count 1000 --in-flight 8 --lists 20 --rounds 3 --bytes 1024 --rules 3 [--server-pid PID]

            connection:
              --server https://host:port   --ca FILE | --insecure   --token T | --kubeconfig FILE
              --namespace NS (each scenario has its own default)   --watches-per-connection 100
              --client-threads 4   --request-connections 4
            """;

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        Options o = new Options(args);
        if (o.scenario == null || o.flag("help")) {
            System.out.print(USAGE);
            System.exit(o.scenario == null ? 2 : 0);
        }
        Kube kube = new Kube(o);
        switch (o.scenario) {
            case "watch-fanout" -> new WatchFanout(kube, o).run();
            case "idle-watchers" -> new IdleWatchers(kube, o).run();
            case "list" -> new ListBench(kube, o).run();
            case "crud" -> new Crud(kube, o).run();
            case "gc-cascade" -> new GcCascade(kube, o).run();
            case "writes" -> new Writes(kube, o).run();
            case "authz" -> new Authz(kube, o).run();
            case "proxy-get" -> new ProxyGet(kube, o).run();
            case "custom-resources" -> new CustomResources(kube, o).run();
            default -> {
                System.err.print("unknown scenario " + o.scenario + "\n" + USAGE);
                System.exit(2);
            }
        }
        System.exit(0);
    }
}
