import EventStore
import HTTP

extension ServiceContext {
    /// Appends without holding a thread (AppendDeferral), counting the outcome.
    func append(_ request: AppendRequest,
                then next: @escaping @Sendable (Result<AppendResult, AppendError>) throws -> HTTPResponse) -> HTTPDeferral {
        AppendDeferral.append(request, to: store, observe: { [self] in count($0) }, then: next)
    }

    /// Appends and waits on this thread, counting the outcome as a request's append is
    /// counted: for work outside a request handler (tools, tests), never in one.
    public func appendAndWait(_ request: AppendRequest) throws(AppendError) -> AppendResult {
        let result = Result { () throws(AppendError) -> AppendResult in try store.append(request) }
        count(result)
        return try result.get()
    }

    func count(_ result: Result<AppendResult, AppendError>) {
        switch result {
        case .success(let r): appendCounter.increment(labels: ["result": r.replayed ? "replayed" : "appended"])
        case .failure(let e): appendCounter.increment(labels: ["result": e.code.rawValue])
        }
    }
}
