-- Console operators' password hashes (docs/console.md). The acts are in the log
-- (operator.added, operator.password_reset, operator.disabled); the hashes are not,
-- because exports of the log reach auditors. A row is written before the event that names
-- it by its credential id, and is never changed: a reset writes a new row, and a row no
-- event names (a command that stopped before its append) is never used.
CREATE TABLE console_credentials (
    operator      text        NOT NULL,
    credential    uuid        NOT NULL,
    password_hash text        NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT console_credentials_pkey PRIMARY KEY (operator, credential),
    CONSTRAINT console_credentials_hash_check CHECK (password_hash LIKE 'scrypt$%')
);

CREATE TRIGGER console_credentials_no_update BEFORE UPDATE ON console_credentials
    FOR EACH ROW EXECUTE FUNCTION events_reject_change();

REVOKE ALL ON console_credentials FROM PUBLIC;
GRANT SELECT, INSERT ON console_credentials TO ledger_service;
