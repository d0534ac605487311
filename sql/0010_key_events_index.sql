-- Keys' events (`key.issued`, `key.revoked`), so that a read waiting for a position can be
-- authenticated before it waits (docs/security.md): a key issued at a position the billing
-- projection has not folded yet is found in the log between the projection's position and
-- the one the read asks for, through this index alone, whatever the size of the log. As
-- for set-asides (0003), no other insert pays for it beyond the predicate.
CREATE INDEX events_key_events_idx ON events (position) WHERE type IN ('key.issued', 'key.revoked');
