-- A table of friends beside a campaign. Invitations: only the digest of each one-time code is
-- kept, with when it runs out and when a friend used it (a revoked invitation is deleted).
CREATE TABLE invitations (
    digest TEXT PRIMARY KEY NOT NULL,
    campaign_id TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
);
CREATE INDEX invitations_by_campaign ON invitations (campaign_id);

-- Who sits where: each friend's seat (2 to 4; the host's is the campaign's owner) and the
-- player cookie they play by. One seat per player per campaign.
CREATE TABLE seats (
    campaign_id TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    player TEXT NOT NULL,
    joined_at INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, seat),
    UNIQUE (campaign_id, player)
);
CREATE INDEX seats_by_player ON seats (player);

-- The moves of the round under way, one per seat (the host's included), as the browser sent
-- them, until the round is narrated.
CREATE TABLE round_moves (
    campaign_id TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    turn INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    body TEXT NOT NULL,
    made_at INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, seat)
);
