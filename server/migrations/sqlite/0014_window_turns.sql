-- The model's window of each snapshot (its verbatim turns), a row per turn beside the state, so
-- that a commit writes only the turns that changed (server/src/store/sql_window.rs). Snapshots
-- of the version before it hold the window inside their state: they are rebuilt from the log on
-- their first load, which writes these rows.
CREATE TABLE window_turns (
    campaign_id TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    turn INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (campaign_id, turn)
);
