package dev.notifier.ops;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.notifier.event.Channel;
import dev.notifier.support.ContractEvent;
import dev.notifier.support.HeadlessChromium;
import dev.notifier.support.ManagementPort;
import dev.notifier.support.PeersInbox;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** The status page as a person sees it: a real headless Chromium against the running service. */
class StatusPageTest extends PipelineTestBase {

    private static final String HTML_NAME = "<b>Bold</b><img src=x onerror=alert(1)>";
    /** An identifier may hold no white space, but markup needs none. */
    private static final String HTML_TRANSFER_ID = "<b>TRX</b><img/src=x/onerror=alert(1)>";
    private static final Pattern STEP = Pattern.compile("<li data-step=\"([a-z]+)\"[^>]*>(.*?)</li>");

    @Test
    void shouldLoadWithTheCountsTheDatabaseHas() throws Exception {
        peers.push.stubFor(post(urlEqualTo("/push")).atPriority(1)
                .withRequestBody(matchingJsonPath("$.token", equalTo("device-reject")))
                .willReturn(aResponse().withStatus(400).withBody("{\"error\":\"unknown device token device-reject\"}")));
        startNotifier();
        send(event(UUID.randomUUID(), ContractEvent.NAME, "somchai@example.com", "device-token-abc", "th-TH"),
                event(UUID.randomUUID(), "Jane", "jane@example.com", null, "en"),
                event(UUID.randomUUID(), "Rejected", "rejected@example.com", "device-reject", "en"),
                "not json".getBytes(StandardCharsets.UTF_8));
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(db.count("SELECT count(*) FROM notifications WHERE status IN ('SENT', 'FAILED')")).isEqualTo(5);
            assertThat(summary().get("deadLettered").asLong()).isEqualTo(1);
        });

        String dom = HeadlessChromium.dumpDom(page().url("/"));

        assertThat(dom).contains("<body data-state=\"loaded\">");
        for (Channel channel : dev.notifier.event.ChannelCatalog.standard().channels()) {
            for (String status : NotificationCounts.STATUSES) {
                assertThat(number(dom, "data-count=\"" + channel + "/" + status + "\"")).as(channel + "/" + status)
                        .isEqualTo(db.count("SELECT count(*) FROM notifications WHERE channel = ? AND status = ?",
                                channel.name(), status));
            }
        }
        assertThat(number(dom, "id=\"inbox-size\"")).isEqualTo(db.count("SELECT count(*) FROM inbox")).isEqualTo(3);
        assertThat(number(dom, "id=\"dead-lettered\"")).isEqualTo(1);
        assertThat(number(dom, "id=\"total\"")).isEqualTo(5);
        // names are masked like addresses
        assertThat(dom).contains("ส*** ใ***").doesNotContain(ContractEvent.NAME)
                .contains("s***@example.com", "devi…abc", "devi…ect")
                .doesNotContain("somchai@example.com", "device-token-abc", "device-reject")
                .containsPattern("unknown device token devi…ect")
                .contains("<section id=\"peers\" hidden=\"\">");
    }

    @Test
    void shouldShowOneEventsWholeHistoryWhenSearchedByEventId() throws Exception {
        peers.pushAnswers(503, 200);
        // the default transfer-id pattern refuses markup; the page must not depend on it
        Map<String, String> settings = settings();
        settings.put("notifier.event.transfer-id-pattern", ".{1,64}");
        startNotifier(settings);
        UUID eventId = UUID.randomUUID();
        byte[] withMarkup = ContractEvent.bytesWith(root -> {
            root.put("eventId", eventId.toString()).put("transferId", HTML_TRANSFER_ID);
            root.remove("channels");
            ContractEvent.recipientOf(root).put("name", HTML_NAME).put("locale", "en");
        });
        send(withMarkup);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(2));

        String dom = HeadlessChromium.dumpDom(page().url("/?eventId=" + eventId));

        assertThat(dom).contains("<section id=\"event\" data-state=\"found\">");
        assertThat(steps(dom)).satisfiesExactly(
                step -> assertThat(step).startsWith("received: received by the inbox 20"),
                step -> assertThat(step).startsWith("created: EMAIL row created").endsWith("to s***@example.com"),
                step -> assertThat(step).startsWith("attempt: EMAIL attempt 1").endsWith(" via email-primary: SENT"),
                step -> assertThat(step).startsWith("final: EMAIL now SENT after 1 attempt(s), sent 20"),
                step -> assertThat(step).startsWith("created: PUSH row created").endsWith("to devi…abc"),
                step -> assertThat(step).startsWith("attempt: PUSH attempt 1").contains(" via push-primary: RETRY — ").contains("503"),
                step -> assertThat(step).startsWith("attempt: PUSH attempt 2").endsWith(" via push-primary: SENT"),
                step -> assertThat(step).startsWith("final: PUSH now SENT after 2 attempt(s), sent 20"));
        // the name is masked, and it and the transfer id are shown as the text they are, never parsed as markup
        assertThat(dom).contains("<span id=\"event-name\">&lt;*** s*** o***</span>")
                .contains("&lt;b&gt;TRX&lt;/b&gt;&lt;img/src=x/onerror=alert(1)&gt;")
                .doesNotContain("<b>TRX</b>").doesNotContain("<img/src");
        String json = page().get("/api/events/" + eventId).body();
        assertThat(dom + json).contains("s***@example.com", "devi…abc")
                .doesNotContain("somchai@example.com", "device-token-abc");
    }

    @Test
    void shouldSaySoWhenNoEventHasTheSearchedId() throws Exception {
        startNotifier();

        String dom = HeadlessChromium.dumpDom(page().url("/?eventId=" + UUID.randomUUID()));

        assertThat(dom).contains("<section id=\"event\" data-state=\"not-found\">")
                .contains("No event with this id is known.");
    }

    @Test
    void shouldShowWhatThePeersReceivedAsTheCustomerSawIt() throws Exception {
        startNotifier();
        notifier.context().getRegistry().bind("peerInbox", new PeersInbox(peers));
        UUID eventId = UUID.randomUUID();
        send(event(eventId, ContractEvent.NAME, "somchai@example.com", "device-token-abc", "th-TH"));
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(2));

        String dom = HeadlessChromium.dumpDom(page().url("/"));

        String peersPanel = dom.substring(dom.indexOf("<section id=\"peers\""));
        assertThat(peersPanel).startsWith("<section id=\"peers\">")
                .contains("โอนเงินสำเร็จ ฿1,500.00", "เรียน คุณสมชาย ใจดี", "s***@example.com", "devi…abc")
                .doesNotContain("somchai@example.com", "device-token-abc");
        HeadlessChromium.screenshot(page().url("/?eventId=" + eventId), Path.of("target", "status-page.png"));
    }

    private ManagementPort page() {
        return new ManagementPort(notifier);
    }

    private JsonNode summary() throws Exception {
        return JsonMapper.builder().build().readTree(page().get("/api/summary").body());
    }

    private static byte[] event(UUID eventId, String name, String email, String pushToken, String locale) {
        return ContractEvent.bytesWith(root -> {
            root.put("eventId", eventId.toString());
            root.remove("channels");
            ContractEvent.recipientOf(root).put("name", name).put("email", email).put("pushToken", pushToken)
                    .put("locale", locale);
        });
    }

    private void send(byte[]... values) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (byte[] value : values) {
            records.add(new ProducerRecord<>(topic, value));
        }
        TestKafka.send(topic, records);
    }

    /** The number in the element that carries {@code attribute}. */
    private static int number(String dom, String attribute) {
        Matcher matcher = Pattern.compile(Pattern.quote(attribute) + "[^>]*>(\\d+)<").matcher(dom);
        assertThat(matcher.find()).as("an element with " + attribute + " holding a number").isTrue();
        return Integer.parseInt(matcher.group(1));
    }

    /** The event's timeline as text, one "kind: text" per step, tags stripped. */
    private static List<String> steps(String dom) {
        List<String> steps = new ArrayList<>();
        Matcher matcher = STEP.matcher(dom);
        while (matcher.find()) {
            steps.add(matcher.group(1) + ": " + matcher.group(2).replaceAll("<[^>]+>", ""));
        }
        return steps;
    }
}
