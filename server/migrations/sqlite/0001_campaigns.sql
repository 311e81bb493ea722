-- Campaigns and their append-only event logs.
CREATE TABLE campaigns (
    id TEXT PRIMARY KEY NOT NULL,
    owner TEXT NOT NULL,
    title TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    turn INTEGER NOT NULL
);

CREATE INDEX campaigns_by_owner ON campaigns (owner, updated_at DESC);

CREATE TABLE events (
    campaign_id TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (campaign_id, seq)
);
