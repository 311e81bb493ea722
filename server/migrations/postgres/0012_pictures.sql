-- The pictures of a campaign's story (a portrait, a scene), drawn by the operator's image model:
-- each kept once per campaign by the SHA-256 of its bytes, which its log's event names.
CREATE TABLE pictures (
    campaign_id TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    format TEXT NOT NULL,
    bytes BYTEA NOT NULL,
    PRIMARY KEY (campaign_id, id)
);
