-- What is derived from each campaign's log, kept so that a turn reads O(1) rows: the snapshot of
-- the current state and the story log the player reads (scene HTML rendered once). Both can be
-- rebuilt from the events at any time; campaigns stored before this migration are rebuilt on
-- their first load.
CREATE TABLE snapshots (
    campaign_id TEXT PRIMARY KEY NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    version BIGINT NOT NULL,
    state TEXT NOT NULL
);

CREATE TABLE story (
    campaign_id TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    idx BIGINT NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (campaign_id, idx)
);
