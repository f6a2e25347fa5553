package dev.notifier.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 exchange over a plain socket, for what java.net.http will not send: a foreign
 * {@code Host}, a path it would normalise, a body the server refuses before it is read.
 */
public final class RawHttp {

    public record Response(int status, Map<String, String> headers, String body) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private RawHttp() {
    }

    public static Response get(int port, String host, String path, String... extraHeaders) throws IOException {
        StringBuilder head = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n");
        for (String header : extraHeaders) {
            head.append(header).append("\r\n");
        }
        return exchange(port, head.append("Connection: close\r\n\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Sends the bytes (a request head, perhaps a body), reads until the server closes or 10 s of silence. */
    public static Response exchange(int port, byte[] request) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request);
                out.flush();
            } catch (IOException closedWhileWriting) {
                // the server answered and closed before it read the whole request: read what it said
            }
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    received.write(buffer, 0, n);
                }
            } catch (SocketTimeoutException | java.net.SocketException endOfAnswer) {
                // a kept-alive connection, or a reset after the answer: what came is the answer
            }
            return parse(received.toString(StandardCharsets.UTF_8));
        }
    }

    private static Response parse(String text) throws IOException {
        int end = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/1.") || end < 0) {
            throw new IOException("not an HTTP response: " + text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
        }
        return new Response(Integer.parseInt(lines[0].split(" ")[1]), headers, text.substring(end + 4));
    }
}
