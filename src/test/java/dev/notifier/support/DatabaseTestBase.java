package dev.notifier.support;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A PostgreSQL database of its own for each test, migrated to the service's schema, and a writer of recorded events. */
public abstract class DatabaseTestBase {

    protected TestDatabase db;
    protected RecordedEvents events;

    @BeforeEach
    void createDatabase() {
        db = new TestDatabase();
        events = new RecordedEvents(db);
    }

    @AfterEach
    void dropDatabase() {
        db.close();
    }
}
