package dev.notifier.ops;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

/** HTTP Basic credentials as a client sent them ({@link #of}: null when the header is missing or not Basic). */
record BasicCredentials(String user, String password) {

    static BasicCredentials of(String header) {
        if (header == null || header.length() < 6 || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(header.substring(6).strip()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return new BasicCredentials("(not base64)", "");
        }
        int colon = decoded.indexOf(':');
        return colon < 0 ? new BasicCredentials(decoded, "") : new BasicCredentials(decoded.substring(0, colon), decoded.substring(colon + 1));
    }

    /** Both compared in constant time, and both always compared. */
    boolean are(String expectedUser, String expectedPassword) {
        boolean userMatches = MessageDigest.isEqual(bytes(expectedUser), bytes(user));
        boolean passwordMatches = MessageDigest.isEqual(bytes(expectedPassword), bytes(password));
        return userMatches & passwordMatches;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "BasicCredentials[user=" + user + ", password=***]";
    }
}
