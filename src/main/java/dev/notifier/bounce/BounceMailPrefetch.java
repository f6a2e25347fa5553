package dev.notifier.bounce;

import jakarta.mail.FetchProfile;
import jakarta.mail.Folder;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import org.apache.camel.component.mail.MailEndpoint;
import org.apache.camel.component.mail.MailUidGenerator;

/**
 * read-bounces' key for each mail, and the reason it is cheap: camel-mail asks for a key per mail (by
 * default its Message-ID header, or a hash of all its headers: one IMAP round trip each, and a whole
 * header block of a hostile mail in memory), then its flags, then read-bounces its size and content
 * type: four round trips per mail. Here the first mail of a window fetches what every step needs for the
 * next {@code window} mails in one IMAP FETCH (flags, envelope, size, content type); the key is the
 * message number, which camel-mail uses only for POP3 and its own idempotent repository (neither used).
 */
public final class BounceMailPrefetch implements MailUidGenerator {

    private static final FetchProfile PROFILE = new FetchProfile();

    static {
        PROFILE.add(FetchProfile.Item.FLAGS);
        PROFILE.add(FetchProfile.Item.ENVELOPE);
        PROFILE.add(FetchProfile.Item.CONTENT_INFO);
        PROFILE.add(FetchProfile.Item.SIZE);
    }

    private final int window;
    private Folder folder;
    private int fetchedUpTo;

    public BounceMailPrefetch(int window) {
        this.window = Math.max(1, window);
    }

    @Override
    public synchronized String generateUuid(MailEndpoint endpoint, Message message) {
        int number = message.getMessageNumber();
        Folder current = message.getFolder();
        if (current != null && (current != folder || number > fetchedUpTo || number < fetchedUpTo - window)) {
            prefetch(current, number);
        }
        return Integer.toString(number);
    }

    private void prefetch(Folder current, int from) {
        folder = current;
        fetchedUpTo = from;
        try {
            int to = Math.min(current.getMessageCount(), from + window - 1);
            if (to >= from) {
                current.fetch(current.getMessages(from, to), PROFILE);
                fetchedUpTo = to;
            }
        } catch (MessagingException | RuntimeException unavailable) {
            // each step then fetches what it needs itself, one round trip at a time
        }
    }
}
