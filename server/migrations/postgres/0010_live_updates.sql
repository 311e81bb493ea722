-- Live updates across instances (server/src/live_relay.rs): each update a turn streams is written
-- here under its campaign's next number, and a NOTIFY names it, for every instance to deliver to
-- its own followers. Kept for minutes (pruned by the writer). SQLite, served by one process,
-- keeps its live updates in memory and has no such tables.
CREATE TABLE live_sequences (
    campaign_id TEXT PRIMARY KEY NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    last_seq BIGINT NOT NULL
);

CREATE TABLE live_updates (
    campaign_id TEXT NOT NULL REFERENCES live_sequences (campaign_id) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    body TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (campaign_id, seq)
);

CREATE INDEX live_updates_created_at ON live_updates (created_at);
