package dev.notifier.delivery.email;

import java.util.Properties;
import org.apache.camel.component.mail.JavaMailSender;

/**
 * What camel-mail hands a {@link JavaMailSender} from the {@code smtp:} endpoint and the component:
 * host, port, credentials and extra properties. A relay given credentials of its own (a fallback)
 * keeps them: the component's are the primary's.
 */
abstract class EndpointSettings implements JavaMailSender {

    private final boolean ownCredentials;
    protected Properties javaMailProperties = new Properties();
    protected String host;
    protected int port = -1;
    protected String username;
    protected String password;

    EndpointSettings(String username, String password, boolean ownCredentials) {
        this.username = username;
        this.password = password;
        this.ownCredentials = ownCredentials;
    }

    static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    @Override
    public Properties getJavaMailProperties() {
        return javaMailProperties;
    }

    @Override
    public void setJavaMailProperties(Properties javaMailProperties) {
        this.javaMailProperties = javaMailProperties;
    }

    @Override
    public void addAdditionalJavaMailProperty(String key, String value) {
        javaMailProperties.setProperty(key, value);
    }

    @Override
    public void setHost(String host) {
        this.host = host;
    }

    @Override
    public String getHost() {
        return host;
    }

    @Override
    public void setPort(int port) {
        this.port = port;
    }

    @Override
    public int getPort() {
        return port;
    }

    @Override
    public void setUsername(String username) {
        if (!ownCredentials) {
            this.username = username;
        }
    }

    @Override
    public String getUsername() {
        return username;
    }

    @Override
    public void setPassword(String password) {
        if (!ownCredentials) {
            this.password = password;
        }
    }

    @Override
    public String getPassword() {
        return password;
    }

}
