package io.kubelix.storage.etcd;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EtcdSettingsTest {

    @Test
    void defaults() {
        EtcdSettings s = EtcdSettings.read(Map.of(), name -> null);
        assertEquals(List.of(URI.create("http://127.0.0.1:2379")), s.servers());
        assertEquals("/registry", s.prefix());
        assertEquals(Duration.ofMinutes(5), s.compactionInterval());
        assertNull(s.caFile());
        assertFalse(s.tls());
    }

    @Test
    void configurationWinsOverFrameworkProperties() {
        Map<String, String> props = Map.of("kubelix.etcd-servers", "https://a:1,https://b:2",
                "kubelix.etcd-prefix", "/from-flag", "kubelix.etcd-compaction-interval", "1h30m");
        EtcdSettings s = EtcdSettings.read(Map.of("etcd-prefix", "/from-config"), props::get);
        assertEquals(List.of(URI.create("https://a:1"), URI.create("https://b:2")), s.servers());
        assertTrue(s.tls());
        assertEquals("/from-config", s.prefix());
        assertEquals(Duration.ofMinutes(90), s.compactionInterval());
    }

    /** The interval is a Go duration, as kube-apiserver's flag: "0" turns compaction off, a bare number has no unit. */
    @Test
    void compactionIntervalIsAGoDuration() {
        assertEquals(Duration.ZERO, interval("0"));
        assertEquals(Duration.ofMillis(1500), interval("1s500ms"));
        assertEquals(Duration.ofMinutes(90), interval("1.5h"));
        assertEquals("invalid etcd-compaction-interval \"30\": time: missing unit in duration \"30\"",
                assertThrows(IllegalArgumentException.class, () -> interval("30")).getMessage());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> interval("5 minutes"));
        assertTrue(e.getMessage().contains("etcd-compaction-interval"), e.getMessage());
    }

    private static Duration interval(String value) {
        return EtcdSettings.read(Map.of("etcd-compaction-interval", value), name -> null).compactionInterval();
    }

    @Test
    void badValuesNameTheSetting() {
        assertThrows(IllegalArgumentException.class, () -> EtcdSettings.parseServers("ftp://x:1"));
        assertThrows(IllegalArgumentException.class, () -> EtcdSettings.parseServers("http://a:1,https://b:2"));
        assertThrows(IllegalArgumentException.class, () -> EtcdSettings.parseServers(" , "));
        assertEquals(List.of(URI.create("http://h:2379")), EtcdSettings.parseServers("h"));
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> EtcdSettings.read(Map.of("etcd-cafile", "/no/such/file"), n -> null));
        assertTrue(missing.getMessage().contains("etcd-cafile"));
        assertThrows(IllegalArgumentException.class, () -> EtcdSettings.read(Map.of("etcd-prefix", "registry"), n -> null));
    }

    @Test
    void keysJoinThePrefix() {
        Keys keys = new Keys("/registry/");
        assertEquals("/registry/configmaps/default/a", keys.object("/configmaps/default/a").toString());
        assertEquals("/registry/configmaps/default/", keys.directory("/configmaps/default"));
        assertEquals("/registry/configmaps/default0", Keys.rangeEnd("/registry/configmaps/default/").toString());
    }
}
