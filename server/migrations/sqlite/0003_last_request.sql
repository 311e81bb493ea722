-- The last request the game master sent for each campaign, exactly as sent, for the context
-- inspector ("what the GM sees") and to measure how much of the next request's front it shares.
-- Not derived from the log: a rebuilt snapshot keeps it.
ALTER TABLE snapshots ADD COLUMN last_request TEXT;
