package dev.notifier.support;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** Plain GETs against a running Notifier's management port (over TLS, trusting a given keystore's certificate). */
public final class ManagementPort {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String baseUrl;
    private final HttpClient http;

    public ManagementPort(RunningNotifier notifier) {
        this(notifier, HTTP);
    }

    private ManagementPort(RunningNotifier notifier, HttpClient http) {
        this.baseUrl = notifier.managementUrl();
        this.http = http;
    }

    /** For a port with TLS: trusts the certificate in {@code keystore} (and nothing else). */
    public static ManagementPort trusting(RunningNotifier notifier, Path keystore, String password) throws Exception {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            trusted.load(in, password.toCharArray());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, trust.getTrustManagers(), null);
        return new ManagementPort(notifier, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).sslContext(tls).build());
    }

    public String url(String path) {
        return baseUrl + path;
    }

    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A GET with HTTP Basic credentials. */
    public HttpResponse<String> get(String path, String user, String password) throws IOException, InterruptedException {
        String credentials = java.util.Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return http.send(HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Basic " + credentials).build(), HttpResponse.BodyHandlers.ofString());
    }
}
