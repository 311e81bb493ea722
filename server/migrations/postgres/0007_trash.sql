-- The trash: a deleted campaign is kept for 30 days, restorable by its player. While in the
-- trash it belongs to no one who can play it: its owner is written `trash:<player>` (so every
-- statement scoped by a player's id passes it by) and `trashed_at` says since when (seconds
-- since the Unix epoch). Past 30 days it is deleted with its log.
ALTER TABLE campaigns ADD COLUMN trashed_at BIGINT;
