package dev.notifier.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.ops.PeerInbox.ReceivedMessage;
import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The demo's embedded SMTP server, push gateway and LINE API, and what they show the status page. */
class DemoPeersTest {

    @Nested
    class LineApi {

        private static final String KEY = "7d444840-9dc0-11d1-b245-5ffdce74fad2";
        private final HttpClient http = HttpClient.newHttpClient();
        private EmbeddedLineApi api;

        @BeforeEach
        void start() throws IOException {
            api = EmbeddedLineApi.start(FreePorts.one());
        }

        @AfterEach
        void stop() {
            api.close();
        }

        @Test
        void shouldAcceptARetryKeyOnceAndAnswer409WithTheAcceptedRequestId() throws Exception {
            HttpResponse<String> first = post(KEY, "U4af4980629d0f5a7cd2bd8b86c5c2f01", "Bearer " + EmbeddedLineApi.TOKEN);
            HttpResponse<String> again = post(KEY, "U4af4980629d0f5a7cd2bd8b86c5c2f01", "Bearer " + EmbeddedLineApi.TOKEN);

            assertThat(first.statusCode()).isEqualTo(200);
            assertThat(again.statusCode()).isEqualTo(409);
            assertThat(again.headers().firstValue("x-line-accepted-request-id")).isPresent();
            assertThat(api.received(10)).singleElement().satisfies(m -> {
                assertThat(m.channel()).isEqualTo("LINE");
                assertThat(m.key()).isEqualTo(KEY);
                assertThat(m.body()).isEqualTo("Transfer completed");
            });
        }

        @Test
        void shouldDeliverButLoseTheAnswerOfEveryThirdNewKey() throws Exception {
            for (int i = 1; i < EmbeddedLineApi.LOST_ANSWER_EVERY; i++) {
                assertThat(post(java.util.UUID.randomUUID().toString(), "U1", "Bearer " + EmbeddedLineApi.TOKEN).statusCode())
                        .isEqualTo(200);
            }
            assertThat(post(KEY, "U1", "Bearer " + EmbeddedLineApi.TOKEN).statusCode()).isEqualTo(500);
            assertThat(post(KEY, "U1", "Bearer " + EmbeddedLineApi.TOKEN).statusCode()).as("the retry").isEqualTo(409);
            assertThat(api.received(10)).hasSize(EmbeddedLineApi.LOST_ANSWER_EVERY);
        }

        @Test
        void shouldRefuseABlockedUserAWrongTokenAndAMalformedKey() throws Exception {
            assertThat(post(KEY, EmbeddedLineApi.BLOCKED_USER_PREFIX + "1", "Bearer " + EmbeddedLineApi.TOKEN).statusCode())
                    .isEqualTo(400);
            assertThat(post(KEY, "U1", "Bearer wrong").statusCode()).isEqualTo(401);
            assertThat(post("not-a-uuid", "U1", "Bearer " + EmbeddedLineApi.TOKEN).statusCode()).isEqualTo(400);
            assertThat(api.received(10)).isEmpty();
        }

        private HttpResponse<String> post(String key, String to, String authorization) throws Exception {
            String body = "{\"to\":\"" + to + "\",\"messages\":[{\"type\":\"text\",\"text\":\"Transfer completed\"}]}";
            return http.send(HttpRequest.newBuilder(URI.create(api.url())).header("X-Line-Retry-Key", key)
                    .header("Authorization", authorization).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    @Nested
    class PushGateway {

        private final HttpClient http = HttpClient.newHttpClient();
        private EmbeddedPushGateway gateway;

        @BeforeEach
        void start() throws IOException {
            gateway = EmbeddedPushGateway.start(FreePorts.one());
        }

        @AfterEach
        void stop() {
            gateway.close();
        }

        @Test
        void shouldDeliverOnceAndAnswerARepeatedKeyWithoutDeliveringAgain() throws Exception {
            assertThat(post("k-1:PUSH", "device-token-abc").statusCode()).isEqualTo(200);
            assertThat(post("k-1:PUSH", "device-token-abc").statusCode()).isEqualTo(200);

            assertThat(gateway.received(10)).singleElement().satisfies(m -> {
                assertThat(m.channel()).isEqualTo("PUSH");
                assertThat(m.key()).isEqualTo("k-1:PUSH");
                assertThat(m.to()).isEqualTo("dev…abc");
                assertThat(m.title()).isEqualTo("Transfer completed");
            });
        }

        @Test
        void shouldBeBusyOnTheFirstAttemptOfEveryFourthNewKey() throws Exception {
            for (int key = 1; key < EmbeddedPushGateway.BUSY_EVERY; key++) {
                assertThat(post("k-" + key, "device-1").statusCode()).isEqualTo(200);
            }
            assertThat(post("k-4", "device-1").statusCode()).isEqualTo(503);
            assertThat(post("k-4", "device-1").statusCode()).as("the retry").isEqualTo(200);
            assertThat(gateway.received(10)).extracting(ReceivedMessage::key).containsExactly("k-4", "k-3", "k-2", "k-1");
        }

        @Test
        void shouldRejectAnUnregisteredTokenForGood() throws Exception {
            HttpResponse<String> response = post("k-1", EmbeddedPushGateway.UNREGISTERED_TOKEN_PREFIX + "1");

            assertThat(response.statusCode()).isEqualTo(404);
            assertThat(gateway.received(10)).isEmpty();
        }

        @Test
        void shouldRefuseRequestsOutsideTheContract() throws Exception {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.url()));
            String body = "{\"token\":\"t\",\"title\":\"t\",\"body\":\"b\",\"data\":{}}";

            assertThat(send(request.copy().POST(HttpRequest.BodyPublishers.ofString(body))).statusCode())
                    .as("no Idempotency-Key").isEqualTo(400);
            assertThat(send(request.copy().header("Idempotency-Key", "k").POST(HttpRequest.BodyPublishers.ofString("{}")))
                    .statusCode()).as("no token, title, body, data").isEqualTo(400);
            assertThat(send(request.copy().GET()).statusCode()).isEqualTo(405);
        }

        private HttpResponse<String> post(String key, String token) throws Exception {
            String body = "{\"token\":\"" + token + "\",\"title\":\"Transfer completed\",\"body\":\"Your transfer\","
                    + "\"data\":{\"eventId\":\"e\",\"transferId\":\"TRX-1\",\"type\":\"TransferCompleted\"}}";
            return send(HttpRequest.newBuilder(URI.create(gateway.url())).header("Idempotency-Key", key)
                    .header("Content-Type", "application/json; charset=utf-8")
                    .POST(HttpRequest.BodyPublishers.ofString(body)));
        }

        private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    @Test
    void smtpServerShouldShowWhatItReceivedMasked() throws Exception {
        int port = FreePorts.one();
        try (EmbeddedSmtpServer smtp = EmbeddedSmtpServer.start(port, FreePorts.one())) {
            sendMail(port, "somchai@example.com", "โอนเงินสำเร็จ", "รายการโอน TRX-1");

            assertThat(new CombinedPeerInbox(smtp).received(10)).singleElement().satisfies(m -> {
                assertThat(m.channel()).isEqualTo("EMAIL");
                assertThat(m.to()).isEqualTo("so*****@example.com");
                assertThat(m.title()).isEqualTo("โอนเงินสำเร็จ");
                assertThat(m.body()).isEqualTo("รายการโอน TRX-1");
            });
        }
    }

    @Test
    void smtpServerShouldReportAMissingMailboxToTheBounceMailboxAsARelayWould() throws Exception {
        int port = FreePorts.one();
        try (EmbeddedSmtpServer smtp = EmbeddedSmtpServer.start(port, FreePorts.one())) {
            sendMail(port, "nobody@example.com", "Transfer", "TRX-1");

            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                    .until(() -> smtp.bouncesPending() == 1 && smtp.received(10).size() == 1);
            jakarta.mail.Store store = Session.getInstance(new Properties()).getStore("imap");
            store.connect("127.0.0.1", smtp.imapPort(), EmbeddedSmtpServer.BOUNCE_USER, EmbeddedSmtpServer.BOUNCE_PASSWORD);
            try {
                jakarta.mail.Folder inbox = store.getFolder("INBOX");
                inbox.open(jakarta.mail.Folder.READ_WRITE);
                MimeMessage report = new MimeMessage((MimeMessage) inbox.getMessage(1));
                var read = dev.notifier.bounce.DeliveryStatusReport.read(report).orElseThrow();
                assertThat(read.originalId()).as("the returned headers name the email sent").isEqualTo(smtp.received(1).get(0).key());
                assertThat(read.recipients()).singleElement().satisfies(r -> {
                    assertThat(r.recipient()).isEqualTo("nobody@example.com");
                    assertThat(r.permanent()).isTrue();
                });
                inbox.getMessage(1).setFlag(jakarta.mail.Flags.Flag.SEEN, true);
                inbox.close(false);
            } finally {
                store.close();
            }
            assertThat(smtp.bouncesPending()).as("read: no bounce pending").isZero();
        }
    }

    private static void sendMail(int port, String to, String subject, String text) throws Exception {
        Properties properties = new Properties();
        properties.put("mail.smtp.host", "127.0.0.1");
        properties.put("mail.smtp.port", String.valueOf(port));
        MimeMessage message = new MimeMessage(Session.getInstance(properties));
        message.setFrom("no-reply@notifier.local");
        message.setRecipient(Message.RecipientType.TO, new InternetAddress(to));
        message.setSubject(subject, "UTF-8");
        message.setText(text, "UTF-8");
        Transport.send(message);
    }
}
