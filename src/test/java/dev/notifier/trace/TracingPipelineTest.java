package dev.notifier.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.notifier.ops.commands.StatusCommand;
import dev.notifier.support.CommandRun;
import dev.notifier.support.Events;
import dev.notifier.support.OtlpReceiver;
import dev.notifier.support.OtlpReceiver.Received;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Tracing end to end on real parts (Kafka, PostgreSQL, SMTP, the push gateway and LINE) into a real
 * OTLP/HTTP receiver: a record's traceparent makes the producer's span the parent of the intake, whose
 * span is the parent of each send; the push and LINE requests carry the send's traceparent; each attempt
 * row and {@code status} carry the trace id. A malformed traceparent starts a new trace and changes nothing else.
 */
class TracingPipelineTest extends PipelineTestBase {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PRODUCER_SPAN = "00f067aa0ba902b7";
    private OtlpReceiver receiver;

    @BeforeEach
    void startReceiver() throws Exception {
        receiver = new OtlpReceiver();
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    private Map<String, String> traced() {
        Map<String, String> settings = settings();
        settings.put("otel.exporter.otlp.endpoint", receiver.endpoint());
        settings.put("otel.bsp.schedule.delay", "100");
        settings.put("notifier.delivery.retry-base-millis", "200");
        return settings;
    }

    @Test
    void shouldContinueTheProducersTraceFromTheInboxToEachProvidersRequest() throws Exception {
        peers.pushAnswers(503, 200);
        startNotifier(traced());
        UUID eventId = UUID.randomUUID();
        ProducerRecord<byte[], byte[]> record = Events.record(topic, "k",
                Events.withLine(eventId, "en", "U" + "0".repeat(31) + "1", "[\"EMAIL\",\"PUSH\",\"LINE\"]"));
        record.headers().add("traceparent", ("00-" + TRACE + "-" + PRODUCER_SPAN + "-01").getBytes(StandardCharsets.US_ASCII));
        record.headers().add("tracestate", "bank=core-7,rojo=00f067aa0ba902b7".getBytes(StandardCharsets.US_ASCII));
        TestKafka.send(topic, List.of(record, Events.record(topic, "bad", "{not json")));

        await().atMost(Duration.ofSeconds(60)).until(() -> sentCount() == 3);
        await().atMost(Duration.ofSeconds(30)).until(() -> named("notifier.send").size() == 4
                && named("notifier.retry.claim").size() >= 1 && named("notifier.dead-letter").size() == 1);

        // the trace as received, for a reader of the test's output
        receiver.spans().stream().filter(s -> s.traceId().equals(TRACE)).forEach(s -> System.out.printf(
                "received span %s %s parent %s %s %s%n", s.name(), s.spanId(), s.parentSpanId(), s.kind(), s.attributes()));
        Received inbox = named("notifier.inbox").stream().filter(s -> s.traceId().equals(TRACE)).findFirst().orElseThrow();
        assertThat(inbox.parentSpanId()).as("the producer's span is the intake's parent").isEqualTo(PRODUCER_SPAN);
        assertThat(inbox.kind()).isEqualTo("SPAN_KIND_CONSUMER");
        assertThat(inbox.attributes()).containsEntry("notifier.event_id", eventId.toString())
                .containsEntry("notifier.duplicate", "false").containsEntry("messaging.destination.name", topic);
        assertThat(inbox.attributes().get("notifier.channels")).contains("EMAIL", "PUSH", "LINE");
        List<Received> sends = named("notifier.send");
        assertThat(sends).allSatisfy(send -> {
            assertThat(send.traceId()).isEqualTo(TRACE);
            assertThat(send.parentSpanId()).as("each send, the retry too, is a child of the intake").isEqualTo(inbox.spanId());
            assertThat(send.attributes().toString()).doesNotContain(Events.emailOf(eventId)).doesNotContain("device-");
        });
        assertThat(sends).extracting(s -> s.attributes().get("notifier.channel") + " " + s.attributes().get("notifier.attempt")
                + " " + s.attributes().get("notifier.outcome") + " " + s.attributes().get("notifier.provider"))
                .containsExactlyInAnyOrder("EMAIL 1 SENT email-primary", "PUSH 1 RETRY push-primary",
                        "PUSH 2 SENT push-primary", "LINE 1 SENT line-primary");
        assertThat(receiver.serviceNames()).contains("notifier");

        // the providers' side joins the trace: each request names the send that made it
        List<String> pushParents = new ArrayList<>();
        for (LoggedRequest push : peers.pushes()) {
            pushParents.add(push.getHeader("traceparent"));
        }
        assertThat(pushParents).hasSize(2).allSatisfy(p -> assertThat(p).startsWith("00-" + TRACE + "-").endsWith("-01"));
        assertThat(pushParents).containsExactlyInAnyOrderElementsOf(sends.stream()
                .filter(s -> s.attributes().get("notifier.channel").equals("PUSH"))
                .map(s -> "00-" + TRACE + "-" + s.spanId() + "-01").toList());
        String lineSpan = sends.stream().filter(s -> s.attributes().get("notifier.channel").equals("LINE")).findFirst()
                .orElseThrow().spanId();
        assertThat(peers.lineRequests()).extracting(r -> r.getHeader("traceparent"))
                .containsExactly("00-" + TRACE + "-" + lineSpan + "-01");

        // the record beside it is dead-lettered: its own trace (it named none), the publishing under its intake
        Received badIntake = named("notifier.inbox").stream().filter(s -> !s.traceId().equals(TRACE)).findFirst().orElseThrow();
        assertThat(badIntake.parentSpanId()).as("no traceparent: a new trace").isEmpty();
        assertThat(badIntake.attributes()).containsEntry("notifier.outcome", "dead-lettered");
        Received published = named("notifier.dead-letter").get(0);
        assertThat(published.traceId()).isEqualTo(badIntake.traceId());
        assertThat(published.parentSpanId()).as("the DLQ publishing under its record's intake").isEqualTo(badIntake.spanId());

        assertThat(db.jdbc().queryForList("SELECT DISTINCT trace_id FROM notification_attempts WHERE event_id = ?",
                String.class, eventId)).containsExactly(TRACE);
        CommandRun status = CommandRun.run(StatusCommand::new, settings(), eventId.toString());
        assertThat(status.out()).contains("via push-primary trace " + TRACE);
    }

    @Test
    void shouldStartANewTraceForAMalformedTraceparentAndDeliverAsUsual() throws Exception {
        startNotifier(traced());
        List<String> malformed = List.of(
                "00-" + TRACE.toUpperCase() + "-" + PRODUCER_SPAN + "-01",  // upper case
                "ff-" + TRACE + "-" + PRODUCER_SPAN + "-01",                // version ff is never valid
                "01-" + TRACE + "-" + PRODUCER_SPAN + "-01-extra",          // a future version: not taken
                "00-" + "0".repeat(32) + "-" + PRODUCER_SPAN + "-01",       // all-zero trace id
                "00-" + TRACE + "-" + "0".repeat(16) + "-01",               // all-zero span id
                "00-" + TRACE + "-" + PRODUCER_SPAN + "-01\r\nx-evil: 1",   // header injection
                "00-" + TRACE + "-" + PRODUCER_SPAN);                       // cut short
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        List<UUID> events = new ArrayList<>();
        for (String traceparent : malformed) {
            UUID eventId = UUID.randomUUID();
            events.add(eventId);
            ProducerRecord<byte[], byte[]> record = Events.record(topic, "k", Events.json(eventId, "en", "[\"PUSH\"]"));
            record.headers().add("traceparent", traceparent.getBytes(StandardCharsets.UTF_8));
            records.add(record);
        }
        UUID twice = UUID.randomUUID();
        events.add(twice);
        ProducerRecord<byte[], byte[]> two = Events.record(topic, "k", Events.json(twice, "en", "[\"PUSH\"]"));
        two.headers().add("traceparent", ("00-" + TRACE + "-" + PRODUCER_SPAN + "-01").getBytes(StandardCharsets.US_ASCII));
        two.headers().add("traceparent", ("00-" + TRACE + "-" + PRODUCER_SPAN + "-00").getBytes(StandardCharsets.US_ASCII));
        records.add(two);
        TestKafka.send(topic, records);

        await().atMost(Duration.ofSeconds(60)).until(() -> sentCount() == events.size());
        // one SENT send per event (on a loaded machine a push may time out first: its retry is a send too)
        await().atMost(Duration.ofSeconds(30)).until(() -> named("notifier.send").stream()
                .filter(send -> "SENT".equals(send.attributes().get("notifier.outcome"))).count() == events.size());
        List<Received> intakes = named("notifier.inbox");
        assertThat(intakes).hasSize(events.size()).allSatisfy(intake -> {
            assertThat(intake.parentSpanId()).as("a new trace").isEmpty();
            assertThat(intake.traceId()).isNotEqualTo(TRACE);
        });
        assertThat(db.count("SELECT count(*) FROM notifications WHERE status = 'SENT'")).isEqualTo(events.size());
        assertThat(db.count("SELECT count(*) FROM notification_attempts WHERE trace_id IS NULL")).isZero();
    }

    private List<Received> named(String name) {
        return receiver.spans().stream().filter(s -> s.name().equals(name)).toList();
    }
}
