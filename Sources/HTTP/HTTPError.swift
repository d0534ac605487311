/// Thrown by a handler to answer with an arbitrary response, e.g. the catalog surface,
/// whose errors have the seed's `{"error": …, "code": …}` shape rather than a problem.
public struct HTTPError: Error, Sendable {
    public var response: HTTPResponse

    public init(response: HTTPResponse) {
        self.response = response
    }
}
