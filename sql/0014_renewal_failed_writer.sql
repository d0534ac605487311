-- `appstore.renewal_failed` (docs/appstore.md, "Billing retry and grace period"): a fact
-- the API records from Apple's `DID_FAIL_TO_RENEW` notifications, so the API's role may
-- append it (migration 0013's lists).
INSERT INTO event_writers (role, event_type) VALUES ('ledger_service', 'appstore.renewal_failed')
ON CONFLICT DO NOTHING;
