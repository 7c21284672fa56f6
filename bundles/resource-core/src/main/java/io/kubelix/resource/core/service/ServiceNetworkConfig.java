package io.kubelix.resource.core.service;

import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-apiserver's {@code --service-cluster-ip-range} and {@code --service-node-port-range}: the
 * ranges services get their cluster IPs and node ports from. Each is read from this component's
 * configuration ({@code etc/io.kubelix.services.cfg}), else from the framework property the
 * launcher sets from the flag ({@code kubelix.service-cluster-ip-range}), else kube's default. A
 * malformed range stops the component with a message naming the setting, so the core group is not
 * served with a range nobody asked for.
 */
// The name from before the package split: a plugin update swaps a component for the one of the same name.
@Component(name = "io.kubelix.resource.core.ServiceNetworkConfig", service = ServiceNetworkConfig.class,
        configurationPid = ServiceNetworkConfig.PID)
@Designate(ocd = ServiceNetworkConfig.Config.class)
public final class ServiceNetworkConfig {
    static final String PID = "io.kubelix.services";
    static final String IP_RANGE = "service-cluster-ip-range";
    static final String NODE_PORT_RANGE = "service-node-port-range";
    private static final Logger LOG = LoggerFactory.getLogger(ServiceNetworkConfig.class);

    @ObjectClassDefinition(name = "Kubelix service networks",
            description = "The ranges services get their cluster IPs and node ports from.")
    public @interface Config {
        @AttributeDefinition(name = IP_RANGE, required = false, description = "A CIDR. When empty: the framework "
                + "property kubelix.service-cluster-ip-range, else " + ServiceCIDR.DEFAULT + ".")
        String service$_$cluster$_$ip$_$range() default "";

        @AttributeDefinition(name = NODE_PORT_RANGE, required = false, description = "A port range. When empty: the "
                + "framework property kubelix.service-node-port-range, else " + NodePortRange.DEFAULT + ".")
        String service$_$node$_$port$_$range() default "";
    }

    private final ServiceCIDR cidr;
    private final NodePortRange nodePorts;

    @Activate
    public ServiceNetworkConfig(Config config, BundleContext context) {
        this(setting(config.service$_$cluster$_$ip$_$range(), context.getProperty("kubelix." + IP_RANGE), ServiceCIDR.DEFAULT),
                setting(config.service$_$node$_$port$_$range(), context.getProperty("kubelix." + NODE_PORT_RANGE),
                        NodePortRange.DEFAULT));
        LOG.info("service cluster IP range {}, node port range {}", cidr, nodePorts);
    }

    /** @throws IllegalArgumentException naming the flag when a range is malformed */
    ServiceNetworkConfig(String ipRange, String nodePortRange) {
        try {
            this.cidr = ServiceCIDR.parse(ipRange);
            this.nodePorts = NodePortRange.parse(nodePortRange);
        } catch (IllegalArgumentException e) {
            LOG.error("core/v1 services are not served: {}", e.getMessage());
            throw e;
        }
    }

    /** kube-apiserver's defaults, for when no configuration component is there (tests). */
    public static ServiceNetworkConfig defaults() {
        return new ServiceNetworkConfig(ServiceCIDR.DEFAULT, NodePortRange.DEFAULT);
    }

    ServiceCIDR cidr() {
        return cidr;
    }

    NodePortRange nodePorts() {
        return nodePorts;
    }

    private static String setting(String configured, String property, String defaultValue) {
        if (configured != null && !configured.isBlank()) {
            return configured.trim();
        }
        return property != null && !property.isBlank() ? property.trim() : defaultValue;
    }
}
