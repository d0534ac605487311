-- Refund requests (docs/appstore.md, "Refund requests (CONSUMPTION_REQUEST)"): the API
-- records Apple's CONSUMPTION_REQUEST as `appstore.consumption_requested`, and so does the
-- projector's role when it recovers one from Apple's notification history; the active
-- projector's worker records the one answer to each, `appstore.consumption_answered`
-- (migration 0013's lists). No index on the log: the worker finds the requests not
-- answered yet in the organizations projection (`appstore_consumption`, a partial index
-- of the unanswered rows), and checks the answer's idempotency key before it sends.
INSERT INTO event_writers (role, event_type) VALUES
    ('ledger_service', 'appstore.consumption_requested'),
    ('ledger_projector', 'appstore.consumption_requested'),
    ('ledger_projector', 'appstore.consumption_answered')
ON CONFLICT DO NOTHING;
