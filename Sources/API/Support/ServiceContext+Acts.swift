import HTTP
import LedgerDomain
import LedgerServices

extension ServiceContext {
    /// Runs `act` as every HTTP surface does (`AppendDeferral.perform`), its append counted,
    /// once admitted (`admitting`).
    func perform(_ act: any LedgerAct, metadata: EventMetadata, key: String? = nil,
                 render: @escaping @Sendable (ActOutcome, Decision?) throws -> HTTPResponse) throws -> HTTPResponse {
        let runner = acts
        return try admitting(act) {
            try AppendDeferral.perform(act, runner: runner, metadata: metadata, key: key, render: render)
        }
    }
}
