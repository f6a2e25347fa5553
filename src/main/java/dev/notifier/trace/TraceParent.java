package dev.notifier.trace;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.TraceStateBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/), read strictly: a record's {@code traceparent}
 * is taken only when there is exactly one, of version {@code 00}, 55 characters of lower-case hex with
 * neither id all zeros. Anything else (two of them, another version, upper case, a stray byte, an
 * oversized {@code tracestate}) is no parent: the intake starts a new trace, and nothing else changes.
 * A {@code tracestate} is kept only when every member is well formed, else dropped (the parent stays).
 */
public final class TraceParent {

    public static final String TRACEPARENT = "traceparent";
    public static final String TRACESTATE = "tracestate";
    private static final Pattern FORM = Pattern.compile("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
    private static final Pattern STATE_KEY = Pattern.compile("[a-z][a-z0-9_*/-]{0,255}|[a-z0-9][a-z0-9_*/-]{0,240}@[a-z][a-z0-9_*/-]{0,13}");
    private static final Pattern STATE_VALUE = Pattern.compile("[\\x20-\\x2b\\x2d-\\x3c\\x3e-\\x7e]{0,255}[\\x21-\\x2b\\x2d-\\x3c\\x3e-\\x7e]");
    private static final int MAX_STATE = 512;
    private static final int MAX_MEMBERS = 32;

    private TraceParent() {
    }

    /** The producer's span on a Kafka record, if it names one well formed. */
    public static Optional<SpanContext> ofRecord(Headers headers) {
        if (headers == null) {
            return Optional.empty();
        }
        return only(headers, TRACEPARENT).flatMap(parent -> parse(parent, only(headers, TRACESTATE).orElse(null)));
    }

    /** @param traceparent a {@code traceparent} value; {@code tracestate} may be null */
    public static Optional<SpanContext> parse(String traceparent, String tracestate) {
        if (traceparent == null || !FORM.matcher(traceparent).matches()) {
            return Optional.empty();
        }
        String traceId = traceparent.substring(3, 35);
        String spanId = traceparent.substring(36, 52);
        if (traceId.chars().allMatch(c -> c == '0') || spanId.chars().allMatch(c -> c == '0')) {
            return Optional.empty();
        }
        TraceFlags flags = TraceFlags.fromByte((byte) Integer.parseInt(traceparent.substring(53), 16));
        return Optional.of(SpanContext.createFromRemoteParent(traceId, spanId, flags, state(tracestate)));
    }

    /** The {@code traceparent} of a span, or null for none. */
    public static String format(SpanContext span) {
        if (span == null || !span.isValid()) {
            return null;
        }
        return "00-" + span.getTraceId() + "-" + span.getSpanId() + "-" + span.getTraceFlags().asHex();
    }

    /** The trace id in a {@code traceparent} this service wrote, or null. */
    public static String traceId(String traceparent) {
        return traceparent != null && FORM.matcher(traceparent).matches() ? traceparent.substring(3, 35) : null;
    }

    private static TraceState state(String tracestate) {
        if (tracestate == null || tracestate.isBlank() || tracestate.length() > MAX_STATE) {
            return TraceState.getDefault();
        }
        String[] members = tracestate.split(",", -1);
        if (members.length > MAX_MEMBERS) {
            return TraceState.getDefault();
        }
        TraceStateBuilder builder = TraceState.builder();
        // members are listed newest first; the builder puts each new one first, so add them in reverse
        for (int i = members.length - 1; i >= 0; i--) {
            String member = members[i].strip();
            int eq = member.indexOf('=');
            if (eq <= 0 || !STATE_KEY.matcher(member.substring(0, eq)).matches()
                    || !STATE_VALUE.matcher(member.substring(eq + 1)).matches()) {
                return TraceState.getDefault();
            }
            builder.put(member.substring(0, eq), member.substring(eq + 1));
        }
        return builder.build();
    }

    /** The value of the one header of that name, printable ASCII; none when absent, repeated or not text. */
    private static Optional<String> only(Headers headers, String name) {
        Iterator<Header> all = headers.headers(name).iterator();
        if (!all.hasNext()) {
            return Optional.empty();
        }
        byte[] value = all.next().value();
        if (all.hasNext() || value == null || value.length > MAX_STATE) {
            return Optional.empty();
        }
        for (byte b : value) {
            if (b < 0x20 || b > 0x7e) {
                return Optional.empty();
            }
        }
        return Optional.of(new String(value, StandardCharsets.US_ASCII));
    }
}
