-- What the server remembers about itself between starts: the fingerprint of the cookie key the
-- database's players were identified with (a start with another key is refused, since every
-- player would lose sight of their campaigns).
CREATE TABLE server_settings (
    name TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);
