-- The search index tells the player's moves from the rest in its `campaign` column: a move's
-- row holds its campaign's id with an "m" after it (never an id, which is hex digits only), so
-- the recall's match leaves the moves out by itself instead of ranking them and dropping them
-- after (server/src/store/sql_search.rs). The index now holds only its own tokens (contentless:
-- the text is read from story_text), and is built again from story_text here.
DROP TRIGGER story_text_added;
DROP TRIGGER story_text_removed;
DROP TABLE story_words;
DROP TABLE story_search;

CREATE VIRTUAL TABLE story_search USING fts5 (
    campaign,
    text,
    content = '',
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE VIRTUAL TABLE story_words USING fts5vocab (story_search, 'row');

INSERT INTO story_search (rowid, campaign, text)
SELECT id, campaign || CASE WHEN kind = 'move' THEN 'm' ELSE '' END, text FROM story_text;

CREATE TRIGGER story_text_added AFTER INSERT ON story_text BEGIN
    INSERT INTO story_search (rowid, campaign, text)
    VALUES (new.id, new.campaign || CASE WHEN new.kind = 'move' THEN 'm' ELSE '' END, new.text);
END;

CREATE TRIGGER story_text_removed AFTER DELETE ON story_text BEGIN
    INSERT INTO story_search (story_search, rowid, campaign, text)
    VALUES ('delete', old.id, old.campaign || CASE WHEN old.kind = 'move' THEN 'm' ELSE '' END,
        old.text);
END;
