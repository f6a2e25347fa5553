package dev.notifier.demo;

import dev.notifier.config.KafkaClientSettings;

import dev.notifier.demo.WorkSummary.NotificationCount;
import dev.notifier.ops.PeerInbox;
import dev.notifier.ops.PeerInbox.ReceivedMessage;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.springframework.jdbc.core.JdbcTemplate;

/** Reads a {@link WorkSummary} from Kafka, the database and the peers; nothing is counted on the side. */
final class WorkProbe implements AutoCloseable {

    private static final long TIMEOUT_SECONDS = 10;

    private final Admin admin;
    private final JdbcTemplate jdbc;
    private final PeerInbox peers;
    private final PeerInbox pushFallback;
    private final java.util.function.LongSupplier bouncesPending;

    /**
     * @param peers        what the peers received, as the status page reads it
     * @param pushFallback   what the fallback push gateway (one of those peers) received
     * @param bouncesPending bounces the SMTP server has still to report, or Notifier to read
     */
    WorkProbe(String bootstrapServers, DataSource dataSource, PeerInbox peers, PeerInbox pushFallback,
              java.util.function.LongSupplier bouncesPending) {
        this.admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers,
                KafkaClientSettings.METRICS_PUSH, "false"));
        this.jdbc = new JdbcTemplate(dataSource);
        this.peers = peers;
        this.pushFallback = pushFallback;
        this.bouncesPending = bouncesPending;
    }

    WorkSummary observe() throws Exception {
        // looked at before the rows (a report flagged read now was committed before they are read) and after
        // them (an email they show SENT is in the SMTP server by then, its report due)
        long bounces = bouncesPending.getAsLong();
        Map<TopicPartition, Long> ends = endOffsets(DemoRun.TOPIC);
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(DemoRun.GROUP)
                .partitionsToOffsetAndMetadata().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        long recordsCommitted = ends.keySet().stream()
                .map(committed::get)
                .mapToLong(offset -> offset == null ? 0 : offset.offset())
                .sum();
        // read after the offsets: the rows of every committed record were committed before it
        long eventsRecorded = jdbc.queryForObject("SELECT COUNT(*) FROM inbox", Long.class);
        List<NotificationCount> notifications = jdbc.query(
                "SELECT channel, status, COUNT(*) AS n, SUM(attempts) AS attempts FROM notifications"
                        + " GROUP BY channel, status ORDER BY channel, status",
                (rs, i) -> new NotificationCount(rs.getString("channel"), rs.getString("status"), rs.getLong("n"),
                        rs.getLong("attempts")));
        Map<String, Long> received = peers.received(Integer.MAX_VALUE).stream()
                .collect(Collectors.groupingBy(ReceivedMessage::channel, Collectors.counting()));
        return new WorkSummary(sum(ends), recordsCommitted, sum(endOffsets(DemoRun.DLQ_TOPIC)), eventsRecorded,
                notifications, received.getOrDefault("EMAIL", 0L), received.getOrDefault("PUSH", 0L),
                pushFallback.received(Integer.MAX_VALUE).size(), received.getOrDefault("LINE", 0L),
                bounces + bouncesPending.getAsLong());
    }

    private Map<TopicPartition, Long> endOffsets(String name) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = admin.describeTopics(List.of(name)).allTopicNames()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS).get(name).partitions().stream()
                .collect(Collectors.toMap(p -> new TopicPartition(name, p.partition()), p -> OffsetSpec.latest()));
        Map<TopicPartition, ListOffsetsResultInfo> offsets = admin.listOffsets(latest).all()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return offsets.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }

    private static long sum(Map<TopicPartition, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }

    @Override
    public void close() {
        admin.close();
    }
}
