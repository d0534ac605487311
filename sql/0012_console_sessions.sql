-- Console sessions as server-side facts (docs/security.md). Until now a session was a
-- signed cookie and nothing else: signing out deleted the browser's copy, and a copy taken
-- before kept working for up to 8 hours. A session is now a row, found by the SHA-256 of the
-- random token its cookie carries (so that reading this table does not give one a
-- session), and checked on every request: signed out or ended (`ended_us`), idle too long
-- (`last_seen_us`), past its lifetime (`expires_us`), or refused by its operator's stream
-- (disabled, another password, `operator.sessions_ended`). Like the password hashes of
-- `console_credentials`, sessions are not in the log: they are access state, not ledger
-- facts; the acts that end other operators' sessions are events.
CREATE TABLE console_sessions (
    session_id    text    NOT NULL,
    token_sha256  bytea   NOT NULL,
    operator      text    NOT NULL,
    credential    uuid    NOT NULL,
    epoch         bigint  NOT NULL,
    created_us    bigint  NOT NULL,
    last_seen_us  bigint  NOT NULL,
    expires_us    bigint  NOT NULL,
    ended_us      bigint,
    ended_reason  text,
    address       text    NOT NULL,
    user_agent    text    NOT NULL,
    CONSTRAINT console_sessions_pkey PRIMARY KEY (session_id),
    CONSTRAINT console_sessions_token_key UNIQUE (token_sha256),
    CONSTRAINT console_sessions_id_check CHECK (session_id ~ '^cs_[0-9a-f]{16}$'),
    CONSTRAINT console_sessions_token_check CHECK (length(token_sha256) = 32),
    CONSTRAINT console_sessions_text_check CHECK (length(address) <= 64 AND length(user_agent) <= 256
                                                  AND length(coalesce(ended_reason, '')) <= 64)
);
CREATE INDEX console_sessions_operator_idx ON console_sessions (operator, created_us);

REVOKE ALL ON console_sessions FROM PUBLIC;
-- The console signs in, touches and ends sessions, and forgets those long over.
GRANT SELECT, INSERT, UPDATE, DELETE ON console_sessions TO ledger_service;
