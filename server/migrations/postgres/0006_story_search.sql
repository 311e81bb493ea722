-- The story's text, searchable by words (the game master's recall and the player's search):
-- one row per scene, move and aside of the story in effect (its `kind`), written and removed with the story
-- rows in the same transaction, with its words as a `tsvector` (the `simple` configuration:
-- lower-cased words, no stemming, as the SQLite index reads them) under a GIN index. Campaigns
-- stored before it get their rows when their snapshot is next rebuilt (the snapshot's version
-- changed with it).
CREATE TABLE story_text (
    campaign TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    idx BIGINT NOT NULL,
    turn BIGINT NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    words TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED,
    PRIMARY KEY (campaign, idx)
);

CREATE INDEX story_text_words ON story_text USING GIN (words);
