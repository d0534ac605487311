-- `stripe.event_recorded` (docs/web-checkout.md): one of Stripe's events for an app's web
-- checkout, which the API records from a verified webhook and the projector's role when it
-- recovers an event the webhook did not bring (`ledger stripe reconcile` and its job).
-- Both roles may append it (migration 0013's lists).
INSERT INTO event_writers (role, event_type) VALUES
    ('ledger_service', 'stripe.event_recorded'),
    ('ledger_projector', 'stripe.event_recorded')
ON CONFLICT DO NOTHING;
