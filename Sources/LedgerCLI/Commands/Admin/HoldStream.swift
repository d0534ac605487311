import EventStore
import LedgerDomain

/// A hold's stream, `hold-<id>`, read from the log (it alone decides whether the hold is
/// open) and settled at exactly the version that was read.
enum HoldStream {
    static func state(_ id: String, session: AdminSession) throws -> HoldDecider.State {
        try HoldDecider.State(stream: try session.services.store.readStream(HoldDecider.stream(id)).map {
            (type: $0.type, data: try $0.data(), position: $0.position)
        })
    }

    /// Appends the settlement; settled by someone else between the read and the append,
    /// it says by what.
    static func settle(_ id: String, _ decision: Decision, session: AdminSession) throws -> [AppendedRecord] {
        try session.append(decision) { error in
            guard error.code == .wrongExpectedVersion, error.stream == HoldDecider.stream(id) else { return nil }
            guard let state = try? state(id, session: session), case .settled = state,
                  case .failure(let refusal) = Result(catching: { () throws(Refusal) -> Decision in try HoldDecider.release(id: id, state: state) })
            else { return AdminError(.alreadySettled, "hold \(id) was settled meanwhile") }
            return AdminError(refusal)
        }
    }
}
