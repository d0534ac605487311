/// The one clock type of the ledger: every process reads time through a function of this
/// type, injected (`SystemClock.now` in production; tests pass one they move), so that
/// nothing reads the machine's time behind the rules' back.
public typealias LedgerClock = @Sendable () -> Timestamp
