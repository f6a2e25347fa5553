package dev.notifier.support;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ScenarioMappingBuilder;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.icegreen.greenmail.util.ServerSetupTest;
import jakarta.mail.internet.MimeMessage;
import java.util.List;

/** The real SMTP server (GreenMail), push gateway and LINE Messaging API (WireMock each) a test talks to. */
public final class Peers implements AutoCloseable {

    public final GreenMail smtp;
    public final WireMockServer push;
    public final WireMockServer line;

    /** LINE's push message path, as the contract's NOTIFIER_LINE_URL default names it. */
    public static final String LINE_PATH = "/v2/bot/message/push";
    public static final String LINE_TOKEN = "test-channel-access-token";

    public Peers() {
        ServerSetup setup = ServerSetupTest.SMTP.dynamicPort();
        smtp = new GreenMail(setup);
        smtp.start();
        push = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
        push.start();
        push.stubFor(post(urlEqualTo("/push")).willReturn(aResponse().withStatus(200).withBody("{\"ok\":true}")));
        line = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
        line.start();
        line.stubFor(post(urlEqualTo(LINE_PATH)).willReturn(aResponse().withStatus(200).withBody("{\"sentMessages\":[]}")));
    }

    public String lineUrl() {
        return "http://127.0.0.1:" + line.port() + LINE_PATH;
    }

    public List<LoggedRequest> lineRequests() {
        return line.findAll(com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor(urlEqualTo(LINE_PATH)));
    }

    /** The push gateway answers with these statuses in turn, and with the last one from then on. */
    public void pushAnswers(int... statuses) {
        push.resetAll();
        String state = Scenario.STARTED;
        for (int i = 0; i < statuses.length; i++) {
            ScenarioMappingBuilder stub = post(urlEqualTo("/push")).inScenario("answers").whenScenarioStateIs(state)
                    .willReturn(aResponse().withStatus(statuses[i]));
            if (i < statuses.length - 1) {
                state = "answered " + (i + 1);
                stub = stub.willSetStateTo(state);
            }
            push.stubFor(stub);
        }
    }

    public int smtpPort() {
        return smtp.getSmtp().getPort();
    }

    public String pushUrl() {
        return "http://127.0.0.1:" + push.port() + "/push";
    }

    public MimeMessage[] emails() {
        return smtp.getReceivedMessages();
    }

    public List<LoggedRequest> pushes() {
        return push.findAll(com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor(urlEqualTo("/push")));
    }

    @Override
    public void close() {
        smtp.stop();
        push.stop();
        line.stop();
    }
}
