-- How many passages of the whole index hold each word (FTS5's own counts, read through a
-- vocabulary table): the search leaves out the words BM25 gives no weight, those in at least
-- half of the passages, before it ranks (server/src/store/sql_search.rs).
CREATE VIRTUAL TABLE story_words USING fts5vocab (story_search, 'row');
