package dev.notifier.ops;

import java.io.File;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.security.KeyStore;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Who may read the management port, and what the service refuses to start with. The status page and
 * its API show customers' transfers, so:
 * <ul>
 *   <li>with {@code NOTIFIER_HTTP_PASSWORD} set, every path takes HTTP Basic auth (user
 *       {@code operator}) except {@code /health/*} and {@code /metrics}, which say nothing about a
 *       customer: deny by default, so a URL added later is protected without anyone listing it;</li>
 *   <li>the {@code Host} header must name this server: its bind address, {@code localhost},
 *       {@code 127.0.0.1}, {@code [::1]}, an address of this machine when bound to all of them, or a
 *       name in {@code NOTIFIER_HTTP_ALLOWED_HOSTS} (a DNS-rebinding page names its own domain);</li>
 *   <li>a port bound beyond loopback needs a password, and TLS ({@code NOTIFIER_HTTP_TLS_KEYSTORE})
 *       unless {@code NOTIFIER_HTTP_INSECURE=true} says a TLS proxy sits in front: Basic auth and
 *       customers' data never cross a network in clear.</li>
 * </ul>
 *
 * @param host             the bind address ({@code NOTIFIER_HTTP_HOST})
 * @param password         the operator's password, or null for none
 * @param allowedHosts     names the {@code Host} header may carry besides the built-in ones
 * @param keystore         a PKCS12 or JKS keystore with the port's certificate and key, or null
 * @param keystorePassword its password (also the key's)
 * @param insecure         plain HTTP beyond loopback, behind a TLS proxy
 */
public record ManagementAccess(String host, String password, List<String> allowedHosts, String keystore,
        String keystorePassword, boolean insecure) {

    static final String USER = "operator";
    static final int MIN_PASSWORD_LENGTH = 12;

    public ManagementAccess {
        password = blankToNull(password);
        keystore = blankToNull(keystore);
        allowedHosts = List.copyOf(allowedHosts);
    }

    /** Loopback only, no password, no TLS: tests and the demo. */
    static ManagementAccess loopback() {
        return new ManagementAccess("127.0.0.1", null, List.of(), null, null, false);
    }

    /** {@code NOTIFIER_HTTP_ALLOWED_HOSTS}: comma-separated, blanks ignored. */
    public static List<String> hostList(String commaSeparated) {
        return commaSeparated == null ? List.of() : java.util.Arrays.stream(commaSeparated.split(","))
                .map(String::strip).filter(name -> !name.isEmpty()).toList();
    }

    boolean tls() {
        return keystore != null;
    }

    /** Refuses what would expose customers' data or the operator's password; loads the keystore to say why it cannot be used. */
    KeyStore requireSafe() {
        if (password != null && password.codePointCount(0, password.length()) < MIN_PASSWORD_LENGTH) {
            throw new IllegalStateException("Refusing to start: NOTIFIER_HTTP_PASSWORD is shorter than "
                    + MIN_PASSWORD_LENGTH + " characters, short enough to guess. Choose a longer one.");
        }
        boolean loopback = isLoopback(host);
        if (!loopback && password == null) {
            throw new IllegalStateException("Refusing to start: the management port would listen on " + host
                    + " (NOTIFIER_HTTP_HOST), beyond this machine, and NOTIFIER_HTTP_PASSWORD is not set, so anyone who"
                    + " reaches it could read customers' transfers on the status page. Set NOTIFIER_HTTP_PASSWORD, or bind"
                    + " to 127.0.0.1.");
        }
        if (!loopback && keystore == null && !insecure) {
            throw new IllegalStateException("Refusing to start: the management port would listen on " + host
                    + " (NOTIFIER_HTTP_HOST), beyond this machine, without TLS, so the operator's password and customers'"
                    + " data would cross the network in clear. Set NOTIFIER_HTTP_TLS_KEYSTORE and NOTIFIER_HTTP_TLS_PASSWORD,"
                    + " or NOTIFIER_HTTP_INSECURE=true if a TLS proxy in front of the port terminates TLS.");
        }
        return keystore == null ? null : loadKeystore();
    }

    private KeyStore loadKeystore() {
        if (keystorePassword == null || keystorePassword.isEmpty()) {
            throw new IllegalStateException("Refusing to start: NOTIFIER_HTTP_TLS_KEYSTORE is set but"
                    + " NOTIFIER_HTTP_TLS_PASSWORD is not; the keystore and its key need their password.");
        }
        File file = new File(keystore);
        if (!file.isFile() || !file.canRead()) {
            throw new IllegalStateException("Refusing to start: NOTIFIER_HTTP_TLS_KEYSTORE names " + keystore
                    + ", which is not a readable file.");
        }
        try {
            KeyStore store = KeyStore.getInstance(file, keystorePassword.toCharArray());
            boolean hasKey = false;
            for (String alias : Collections.list(store.aliases())) {
                hasKey |= store.isKeyEntry(alias);
            }
            if (!hasKey) {
                throw new IllegalStateException("Refusing to start: the keystore " + keystore
                        + " (NOTIFIER_HTTP_TLS_KEYSTORE) holds no private key, so the port could not prove who it is.");
            }
            return store;
        } catch (IllegalStateException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("Refusing to start: cannot read the keystore " + keystore
                    + " (NOTIFIER_HTTP_TLS_KEYSTORE, NOTIFIER_HTTP_TLS_PASSWORD): " + e.getMessage(), e);
        }
    }

    /** Every name (lower case, without brackets or a trailing dot) the {@code Host} header may carry. */
    Set<String> hostNames() {
        Set<String> names = new LinkedHashSet<>(List.of("localhost", "127.0.0.1", "::1"));
        names.add(normalHost(host));
        allowedHosts.forEach(name -> names.add(normalHost(name)));
        try {
            InetAddress bound = InetAddress.getByName(host);
            if (bound.isAnyLocalAddress()) {
                // bound to every address: each of them names this server (a probe by pod IP, a scrape by address)
                for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                    for (InetAddress address : Collections.list(network.getInetAddresses())) {
                        names.add(normalHost(literal(address)));
                    }
                }
            }
        } catch (UnknownHostException | SocketException e) {
            // the bind itself reports an unusable host; the names above stay allowed
        }
        return Set.copyOf(names);
    }

    /** {@code [::1]} and {@code ::1}, {@code Example.COM.} and {@code example.com} are one name. */
    static String normalHost(String name) {
        String n = name.strip().toLowerCase(Locale.ROOT);
        if (n.startsWith("[") && n.endsWith("]")) {
            n = n.substring(1, n.length() - 1);
        }
        if (n.endsWith(".")) {
            n = n.substring(0, n.length() - 1);
        }
        return n;
    }

    private static String literal(InetAddress address) {
        String text = address.getHostAddress();
        // an IPv6 address of an interface carries its scope ("fe80::1%eth0"): a Host header never does
        return address instanceof Inet6Address && text.contains("%") ? text.substring(0, text.indexOf('%')) : text;
    }

    private static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException("Cannot resolve NOTIFIER_HTTP_HOST '" + host + "': " + e.getMessage(), e);
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    @Override
    public String toString() {
        return "ManagementAccess[host=" + host + ", password=" + (password == null ? "none" : "***")
                + ", allowedHosts=" + allowedHosts + ", tls=" + tls() + ", insecure=" + insecure + "]";
    }
}
