package dev.notifier;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import dev.notifier.support.Events;
import dev.notifier.support.LogCapture;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.SmtpSink;
import dev.notifier.support.TestKafka;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two relays and two gateways, all real servers: the next provider is asked only when the one before
 * surely did not take the message; every key is accepted once across both; a dead provider's circuit
 * opens (no timeout paid per message) and closes when it is back.
 */
class ProviderFailoverTest extends PipelineTestBase {

    private final List<AutoCloseable> servers = new ArrayList<>();

    @AfterEach
    void stopServers() throws Exception {
        for (AutoCloseable server : servers) {
            server.close();
        }
    }

    @Test
    void shouldSendThroughTheFallbackRelayWhileThePrimaryIsSilentWithoutPayingItsTimeoutPerMessage() throws Exception {
        BlackHole primary = keep(new BlackHole());
        var settings = emailOnly(primary.port(), peers.smtpPort());
        settings.put("notifier.smtp.timeout-millis", "1000");
        settings.put("notifier.provider.circuit-open-millis", "600000");
        int logMark = LogCapture.mark();
        startNotifier(settings);

        List<UUID> events = publish(20, "[\"EMAIL\"]");

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(events.size()));
        assertThat(emailKeys()).hasSize(events.size()).doesNotHaveDuplicates();
        // two senders can be in a send when the circuit opens after five failures: never one per message
        assertThat(primary.connections()).isBetween(5, 7);
        assertThat(db.jdbc().queryForList("SELECT DISTINCT provider FROM notification_attempts WHERE outcome = 'SENT'",
                String.class)).containsExactly("email-fallback");
        assertThat(LogCapture.since(logMark)).anyMatch(line -> line.contains("sent through email-fallback after email-primary"))
                .anyMatch(line -> line.contains("provider email-primary: circuit CLOSED -> OPEN"));
    }

    @Test
    void shouldCloseThePrimarysCircuitWhenItAnswersAgain() throws Exception {
        AtomicInteger busy = new AtomicInteger(1);
        List<SmtpSink.AcceptedMail> atPrimary = new CopyOnWriteArrayList<>();
        SmtpSink primary = keep(new SmtpSink(0, recipient -> busy.get() == 1 ? "451 4.3.2 try again later" : "250 2.1.5 Ok",
                atPrimary::add));
        var settings = emailOnly(primary.port(), peers.smtpPort());
        settings.put("notifier.provider.circuit-open-millis", "1500");
        int logMark = LogCapture.mark();
        startNotifier(settings);
        List<UUID> first = publish(10, "[\"EMAIL\"]");
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(first.size()));
        assertThat(atPrimary).isEmpty();
        assertThat(LogCapture.since(logMark)).anyMatch(line -> line.contains("provider email-primary: circuit CLOSED -> OPEN"));

        busy.set(0);
        long back = System.nanoTime();
        List<UUID> second = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            second.addAll(publish(1, "[\"EMAIL\"]"));
            assertThat(atPrimary).isNotEmpty();
        });
        long closedAfterMillis = (System.nanoTime() - back) / 1_000_000;
        assertThat(LogCapture.since(logMark)).anyMatch(line -> line.contains("provider email-primary: circuit HALF_OPEN -> CLOSED"));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(sentCount()).isEqualTo(first.size() + second.size()));
        // every key once, across both relays
        List<String> keys = new ArrayList<>(emailKeys());
        atPrimary.forEach(mail -> keys.add(mail.messageId()));
        assertThat(keys).hasSize(first.size() + second.size()).doesNotHaveDuplicates();
        System.out.println("circuit closed within " + closedAfterMillis + " ms of the primary answering again");
    }

    @Test
    void shouldRetryOnThePrimaryOnlyWhenItMayHaveTakenTheMessage() throws Exception {
        List<SmtpSink.AcceptedMail> atPrimary = new CopyOnWriteArrayList<>();
        SmtpSink primary = keep(SmtpSink.recording(atPrimary::add, SmtpSink.Options.PLAIN));
        primary.dropAnswersAfterTheDot(1);
        startNotifier(emailOnly(primary.port(), peers.smtpPort()));

        UUID eventId = publish(1, "[\"EMAIL\"]").get(0);

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(1));
        assertThat(peers.emails()).as("the fallback cannot know the primary took it").isEmpty();
        assertThat(atPrimary).hasSize(2).extracting(SmtpSink.AcceptedMail::messageId).containsOnly(
                "<" + eventId + ".email@notifier>");
        assertThat(db.jdbc().queryForList("SELECT provider FROM notification_attempts WHERE event_id = ? ORDER BY attempt",
                String.class, eventId)).containsExactly("email-primary", "email-primary");
    }

    @Test
    void shouldNeverGiveARecipientsPermanentRejectionToTheFallback() throws Exception {
        SmtpSink primary = keep(SmtpSink.rejectingEveryRecipient());
        startNotifier(emailOnly(primary.port(), peers.smtpPort()));

        publish(1, "[\"EMAIL\"]");

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(db.count("SELECT count(*) FROM notifications WHERE status = 'FAILED'")).isEqualTo(1));
        assertThat(peers.emails()).isEmpty();
        assertThat((String) db.notifications().get(0).get("last_error")).contains("550");
    }

    @Test
    void shouldFailOverToTheSecondGatewayOnA503WithTheSameKeyAndKeepAPossiblyTakenOneOnTheFirst() throws Exception {
        WireMockServer fallback = keep(gateway());
        peers.push.resetAll();
        // the first request is taken and its answer lost (the connection drops); every later one is a 503
        peers.push.stubFor(post(urlEqualTo("/push")).inScenario("p").whenScenarioStateIs(Scenario.STARTED)
                .willReturn(aResponse().withFault(Fault.EMPTY_RESPONSE)).willSetStateTo("busy"));
        peers.push.stubFor(post(urlEqualTo("/push")).inScenario("p").whenScenarioStateIs("busy")
                .willReturn(aResponse().withStatus(503)));
        var settings = settings();
        settings.put("notifier.channels", "PUSH");
        settings.put("notifier.kafka.consumers", "1");
        settings.put("notifier.delivery.senders", "1");
        settings.put("notifier.channel.push.fallback.url", "http://127.0.0.1:" + fallback.port() + "/push");
        startNotifier(settings);

        UUID possiblyTaken = publish(1, "[\"PUSH\"]").get(0);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(db.count("SELECT count(*) FROM notification_attempts WHERE event_id = ?", possiblyTaken))
                        .isGreaterThanOrEqualTo(1));
        List<UUID> later = publish(5, "[\"PUSH\"]");

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(keys(fallback)).containsAll(later.stream().map(id -> id + ":PUSH").toList()));
        // the one whose outcome at the first gateway is unknown never goes to the second
        assertThat(keys(fallback)).doesNotContain(possiblyTaken + ":PUSH").doesNotHaveDuplicates();
        assertThat(db.jdbc().queryForList("SELECT DISTINCT provider FROM notification_attempts WHERE event_id = ?",
                String.class, possiblyTaken)).containsOnly("push-primary");
        // a later 503 there does not prove the first was not taken: the pin stays until the row ends
        var row = db.jdbc().queryForMap("SELECT status, provider_pin FROM notifications WHERE event_id = ?", possiblyTaken);
        if (!"FAILED".equals(row.get("status"))) {
            assertThat(row.get("provider_pin")).isEqualTo("push-primary");
        }
    }

    @Test
    void shouldPauseTheGatewayForItsRetryAfterInSecondsAndAsAnHttpDate() throws Exception {
        for (boolean asDate : List.of(false, true)) {
            String retryAfter = asDate ? java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(
                    java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).plusSeconds(8)) : "2";
            peers.push.resetAll();
            peers.push.stubFor(post(urlEqualTo("/push")).inScenario("r").whenScenarioStateIs(Scenario.STARTED)
                    .willReturn(aResponse().withStatus(429).withHeader("Retry-After", retryAfter)).willSetStateTo("ok"));
            peers.push.stubFor(post(urlEqualTo("/push")).inScenario("r").whenScenarioStateIs("ok")
                    .willReturn(aResponse().withStatus(200)));
            var settings = settings();
            settings.put("notifier.channels", "PUSH");
            // one sender: requests one at a time, so none is in flight when the 429 comes back
            settings.put("notifier.delivery.senders", "1");
            settings.put("notifier.delivery.retry-base-millis", "100");
            if (notifier != null) {
                notifier.close();
            }
            startNotifier(settings);

            List<UUID> events = publish(6, "[\"PUSH\"]");

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(db.count("SELECT count(*) FROM notifications WHERE status = 'SENT' AND event_id = ANY(?)",
                            (Object) events.toArray(UUID[]::new))).isEqualTo(events.size()));
            var requests = peers.push.getAllServeEvents().stream().map(e -> e.getRequest().getLoggedDate().getTime())
                    .sorted().toList();
            long limited = requests.get(0);
            long next = requests.get(1);
            // the server's own clock: nothing from this instance until the pause was over
            // the date is whole seconds, 8 s ahead when the test set it; the notifier's start takes a few of them
            assertThat(next - limited).as("Retry-After: " + retryAfter).isGreaterThanOrEqualTo(asDate ? 1000 : 2000);
            System.out.println("Retry-After " + retryAfter + ": next request " + (next - limited) + " ms after the 429");
        }
    }

    /** The rate is the whole deployment's (SharedRateTest has three instances share one); here the routes keep to it. */
    @Test
    void shouldKeepTheGatewaysRateInEverySecond() throws Exception {
        var settings = settings();
        settings.put("notifier.channel.push.rate", "10");
        startNotifier(settings);

        List<UUID> events = publish(40, "[\"PUSH\"]");

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(events.size()));
        List<Long> arrivals = peers.pushes().stream().map(r -> r.getLoggedDate().getTime()).sorted().toList();
        assertThat(arrivals).hasSize(events.size());
        int busiest = 0;
        for (int first = 0, last = 0; last < arrivals.size(); last++) {
            while (arrivals.get(last) - arrivals.get(first) >= 1000) {
                first++;
            }
            busiest = Math.max(busiest, last - first + 1);
        }
        // the rate and one 100-ms slot more, in any 1-s window as the gateway saw it
        assertThat(busiest).as("pushes in the busiest 1-s window, of %s", arrivals).isLessThanOrEqualTo(11);
        assertThat(db.count("SELECT count(*) FROM provider_rate WHERE provider = 'push-primary'")).isEqualTo(1);
    }

    private Map<String, String> emailOnly(int primaryPort, int fallbackPort) {
        var settings = settings();
        settings.put("notifier.channels", "EMAIL");
        settings.put("notifier.delivery.senders", "2");
        settings.put("notifier.smtp.port", String.valueOf(primaryPort));
        settings.put("notifier.smtp.fallback.host", "127.0.0.1");
        settings.put("notifier.smtp.fallback.port", String.valueOf(fallbackPort));
        return settings;
    }

    private List<UUID> publish(int count, String channels) {
        List<UUID> ids = new ArrayList<>();
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            UUID id = UUID.randomUUID();
            ids.add(id);
            records.add(Events.record(topic, id.toString(), Events.json(id, "en", channels)));
        }
        TestKafka.send(topic, records);
        return ids;
    }

    private static List<String> keys(WireMockServer gateway) {
        return gateway.findAll(postRequestedFor(urlEqualTo("/push"))).stream()
                .map(r -> r.getHeader("Idempotency-Key")).toList();
    }

    private WireMockServer gateway() {
        WireMockServer server = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
        server.start();
        server.stubFor(post(urlEqualTo("/push")).willReturn(aResponse().withStatus(200)));
        return server;
    }

    private <T> T keep(T server) {
        servers.add(server instanceof WireMockServer w ? w::stop : (AutoCloseable) server);
        return server;
    }

    /** Accepts connections and never says a word: a relay that hangs. */
    private static final class BlackHole implements AutoCloseable {
        private final ServerSocket server = new ServerSocket();
        private final Set<Socket> held = ConcurrentHashMap.newKeySet();
        private final AtomicInteger connections = new AtomicInteger();

        BlackHole() throws IOException {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Thread acceptor = new Thread(() -> {
                while (!server.isClosed()) {
                    try {
                        held.add(server.accept());
                        connections.incrementAndGet();
                    } catch (IOException e) {
                        return;
                    }
                }
            }, "black-hole");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return server.getLocalPort();
        }

        int connections() {
            return connections.get();
        }

        @Override
        public void close() throws IOException {
            server.close();
            for (Socket socket : held) {
                socket.close();
            }
        }
    }
}
