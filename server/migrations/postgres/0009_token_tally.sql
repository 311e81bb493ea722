-- What each campaign's story has cost so far, in tokens: written with every commit from the
-- snapshot's tally, so that a player's list shows it without reading any snapshot. Campaigns
-- stored before this count from their next turn.
ALTER TABLE campaigns ADD COLUMN prompt_tokens BIGINT NOT NULL DEFAULT 0;
ALTER TABLE campaigns ADD COLUMN cached_tokens BIGINT NOT NULL DEFAULT 0;
ALTER TABLE campaigns ADD COLUMN completion_tokens BIGINT NOT NULL DEFAULT 0;
