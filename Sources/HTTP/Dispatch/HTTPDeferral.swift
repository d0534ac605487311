/// Thrown by a handler that cannot answer yet because it waits for something outside the
/// request: the projector passing a position, the appender committing a group.
///
/// The server holds no thread meanwhile. It keeps the connection suspended, calls
/// `start` with a `wake` callback, and runs `resume` on a worker once `wake` is called,
/// or answers with `expired()` when `timeout` passes first (then calling the cancel
/// closure `start` returned, so that the waiter can forget the request). `resume` may
/// itself throw another deferral, to chain waits (append, then read the projection).
///
/// `wake` may be called from any thread, at most once counts; `expired` must not block.
public struct HTTPDeferral: Error, Sendable {
    public typealias Wake = @Sendable () -> Void
    public typealias Cancel = @Sendable () -> Void

    public var start: @Sendable (_ wake: @escaping Wake) -> Cancel
    public var timeout: Duration
    public var resume: @Sendable () throws -> HTTPResponse
    public var expired: @Sendable () throws -> HTTPResponse

    public init(timeout: Duration, start: @escaping @Sendable (_ wake: @escaping Wake) -> Cancel,
                resume: @escaping @Sendable () throws -> HTTPResponse,
                expired: @escaping @Sendable () throws -> HTTPResponse) {
        self.timeout = timeout
        self.start = start
        self.resume = resume
        self.expired = expired
    }
}
