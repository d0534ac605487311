-- `appstore.price_increase_reported` and `appstore.renewal_extension_failed`
-- (docs/appstore.md, "Lifecycle"): facts the API records from Apple's `PRICE_INCREASE` and
-- `RENEWAL_EXTENSION` `FAILURE` notifications, and the projector's role records when it
-- recovers those notifications from Apple's notification history. Both roles may append
-- them (migration 0013's lists).
INSERT INTO event_writers (role, event_type) VALUES
    ('ledger_service', 'appstore.price_increase_reported'),
    ('ledger_service', 'appstore.renewal_extension_failed'),
    ('ledger_projector', 'appstore.price_increase_reported'),
    ('ledger_projector', 'appstore.renewal_extension_failed')
ON CONFLICT DO NOTHING;
