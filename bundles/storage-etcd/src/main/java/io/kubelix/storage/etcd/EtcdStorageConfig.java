package io.kubelix.storage.etcd;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the etcd3 backend (pid {@code io.kubelix.storage.etcd}); "$_$" in a name is "-".
 * A setting left out falls back to the framework property {@code kubelix.<name>} that
 * {@code bin/kubelix} sets from the flag of the same name, then to the default.
 */
@ObjectClassDefinition(name = "Kubelix etcd3 storage",
        description = "The etcd v3 storage backend (--storage-backend=etcd3).")
public @interface EtcdStorageConfig {

    @AttributeDefinition(name = "etcd servers",
            description = "Comma-separated etcd client URLs (http:// or https://), kube-apiserver's --etcd-servers.")
    String etcd$_$servers() default EtcdSettings.DEFAULT_SERVERS;

    @AttributeDefinition(name = "Key prefix",
            description = "The prefix of every key Kubelix writes, kube-apiserver's --etcd-prefix.")
    String etcd$_$prefix() default EtcdSettings.DEFAULT_PREFIX;

    @AttributeDefinition(name = "CA file", required = false,
            description = "PEM file of the CAs that sign the etcd servers' certificates (--etcd-cafile).")
    String etcd$_$cafile();

    @AttributeDefinition(name = "Client certificate file", required = false,
            description = "PEM client certificate for etcd's client certificate auth (--etcd-certfile).")
    String etcd$_$certfile();

    @AttributeDefinition(name = "Client key file", required = false,
            description = "PEM (PKCS#8) private key of the client certificate (--etcd-keyfile).")
    String etcd$_$keyfile();

    @AttributeDefinition(name = "Compaction interval",
            description = "How often history is compacted, such as 5m, 1h or 90s; 0 turns compaction off"
                    + " (--etcd-compaction-interval).")
    String etcd$_$compaction$_$interval() default EtcdSettings.DEFAULT_COMPACTION_INTERVAL;
}
