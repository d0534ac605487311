import HTTP
import LedgerDomain
import LedgerServices

extension ServiceContext {
    /// Runs `act` as every HTTP surface does (`AppendDeferral.perform`), its append counted.
    func perform(_ act: any LedgerAct, metadata: EventMetadata, key: String? = nil,
                 render: @escaping @Sendable (ActOutcome, Decision?) throws -> HTTPResponse) throws -> HTTPResponse {
        try AppendDeferral.perform(act, runner: acts, metadata: metadata, key: key, render: render)
    }
}
