-- PostgreSQL's schema follows migrations/sqlite step by step (same numbers, BIGINT for INTEGER):
-- a change to one is made to both.
-- Campaigns and their append-only event logs.
CREATE TABLE campaigns (
    id TEXT PRIMARY KEY NOT NULL,
    owner TEXT NOT NULL,
    title TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    turn BIGINT NOT NULL
);

CREATE INDEX campaigns_by_owner ON campaigns (owner, updated_at DESC);

CREATE TABLE events (
    campaign_id TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    turn BIGINT NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (campaign_id, seq)
);
