/// The ledger's release: what `ledger --version` prints and `/openapi.json` states.
public enum LedgerVersion {
    public static let current = "0.1.0"
}
