import EventStore
import HTTP
import LedgerServices

extension ServiceContext {
    /// The shared acts, on the service's pools and clock.
    var acts: ActRunner { ActRunner(store: store, pool: pool, now: now) }

    /// Runs `act` as every HTTP surface does (`AppendDeferral.perform`), counting its append.
    func perform(_ act: any LedgerAct, metadata: EventMetadata, key: String? = nil,
                 render: @escaping @Sendable (ActOutcome, AppendRequest?) throws -> HTTPResponse) throws -> HTTPResponse {
        try AppendDeferral.perform(act, runner: acts, metadata: metadata, key: key, observe: { [self] in count($0) }, render: render)
    }
}
