-- One turn at a time per campaign, across instances: the lease of the work running for a
-- campaign (a turn's phase, or a summary), with its holder and when it runs out unless renewed.
CREATE TABLE leases (
    campaign_id TEXT NOT NULL,
    work TEXT NOT NULL,
    holder TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, work)
);

-- The roll of a move in progress, saved before it is shown: a retry of the same move at the same
-- turn gets the same roll. A commit that moves the campaign's turn removes it.
CREATE TABLE pending_rolls (
    campaign_id TEXT PRIMARY KEY NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    turn INTEGER NOT NULL,
    action_id TEXT NOT NULL,
    reason TEXT NOT NULL,
    resolution TEXT NOT NULL
);
