package io.kubelix.logging;

import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.EncoderBase;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;

/**
 * The encoder of kube-apiserver's {@code --logging-format}: {@code text} writes each line with
 * {@link #setPattern the pattern}, {@code json} one {@link KubeJsonLayout JSON object} per line.
 * One appender serves both, so the configuration names the format once, as a property.
 */
public final class KubeLogEncoder extends EncoderBase<ILoggingEvent> {
    private String format = "text";
    private String pattern = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSZ} %level %logger{0} - %msg%n";
    private Encoder<ILoggingEvent> delegate;

    /** {@code text} or {@code json}. */
    public void setFormat(String format) {
        this.format = format;
    }

    /** The layout pattern of the text format. */
    public void setPattern(String pattern) {
        this.pattern = pattern;
    }

    @Override
    public void start() {
        if (format.equals("json")) {
            KubeJsonLayout layout = new KubeJsonLayout();
            layout.setContext(getContext());
            layout.start();
            LayoutWrappingEncoder<ILoggingEvent> json = new LayoutWrappingEncoder<>();
            json.setLayout(layout);
            delegate = json;
        } else {
            if (!format.equals("text")) {
                addError("logging format \"" + format + "\": Unsupported log format; must be text or json; writing text");
            }
            PatternLayoutEncoder text = new PatternLayoutEncoder();
            text.setPattern(pattern);
            delegate = text;
        }
        delegate.setContext(getContext());
        delegate.start();
        super.start();
    }

    @Override
    public void stop() {
        if (delegate != null) {
            delegate.stop();
        }
        super.stop();
    }

    @Override
    public byte[] headerBytes() {
        return delegate.headerBytes();
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        return delegate.encode(event);
    }

    @Override
    public byte[] footerBytes() {
        return delegate.footerBytes();
    }
}
