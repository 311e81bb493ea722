-- The story's text, searchable by words (the game master's recall and the player's search):
-- one row per scene, move and aside of the story in effect (its `kind`), written and removed with the story
-- rows in the same transaction; `story_search` is its FTS5 index (BM25 ranking), kept in step
-- by the triggers. Campaigns stored before it get their rows when their snapshot is next
-- rebuilt (the snapshot's version changed with it).
CREATE TABLE story_text (
    id INTEGER PRIMARY KEY,
    campaign TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL
);

CREATE INDEX story_text_by_campaign ON story_text (campaign, idx);

CREATE VIRTUAL TABLE story_search USING fts5 (
    campaign,
    text,
    content = 'story_text',
    content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER story_text_added AFTER INSERT ON story_text BEGIN
    INSERT INTO story_search (rowid, campaign, text) VALUES (new.id, new.campaign, new.text);
END;

CREATE TRIGGER story_text_removed AFTER DELETE ON story_text BEGIN
    INSERT INTO story_search (story_search, rowid, campaign, text)
    VALUES ('delete', old.id, old.campaign, old.text);
END;
