-- Set-aside events (`projection.event_set_aside`): the projector reads them before every
-- batch, so that a projection skips an event an operator set aside for it. A partial
-- index keeps that read a lookup whatever the size of the log; no other insert pays for
-- it beyond the predicate.
CREATE INDEX events_set_aside_idx ON events (position) WHERE type = 'projection.event_set_aside';
