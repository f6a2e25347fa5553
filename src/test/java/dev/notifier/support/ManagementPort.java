package dev.notifier.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Plain GETs against a running Notifier's management port. */
public final class ManagementPort {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String baseUrl;

    public ManagementPort(RunningNotifier notifier) {
        this.baseUrl = notifier.managementUrl();
    }

    public String url(String path) {
        return baseUrl + path;
    }

    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A GET with HTTP Basic credentials. */
    public HttpResponse<String> get(String path, String user, String password) throws IOException, InterruptedException {
        String credentials = java.util.Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return HTTP.send(HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Basic " + credentials).build(), HttpResponse.BodyHandlers.ofString());
    }
}
