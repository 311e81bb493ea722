-- Recovery codes: a player's code brings their campaigns to another browser or device. Only
-- the code's SHA-256 digest is kept (the code itself is shown once, to its player); one code a
-- player, replaced when a new one is made and deleted when revoked. `created_at` is seconds
-- since the Unix epoch.
CREATE TABLE recovery_codes (
    player TEXT PRIMARY KEY NOT NULL,
    digest TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
);
