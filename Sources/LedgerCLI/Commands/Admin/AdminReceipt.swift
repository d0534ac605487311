import LedgerJSON

/// What an operator command did: the events it appended, and anything else it has to
/// report (a key's secret, a month's charges). The dispatcher prints it as text or JSON.
struct AdminReceipt {
    /// Every event appended (or found already recorded), in order.
    var events: [AppendedRecord] = []
    /// Extra members of the `--json` object.
    var fields: [String: JSONValue] = [:]
    /// Text lines printed before the events (e.g. that a close resumes).
    var notes: [String] = []
    /// Text lines printed after the events.
    var lines: [String] = []
}
