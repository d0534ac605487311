extension HTTPResponse {
    /// The header fields every answer of the server carries, whatever produced it (a
    /// handler, a problem, a refusal before routing, a timeout), set in this one place so
    /// that no path can leave them out:
    /// - `X-Request-Id`, the request's id (docs/monitoring.md);
    /// - `X-Content-Type-Options: nosniff`: a body is only ever what its `Content-Type` says,
    ///   so a browser never reads a JSON error or a CSV export as script or HTML;
    /// - on every error (4xx, 5xx) without its own, `Cache-Control: private, no-store`: an
    ///   error answers one request and may say what its caller may see (a 401 names a
    ///   credential, a 404 hides an account), and without it a 404 is heuristically
    ///   cacheable (RFC 9111 §4.2.2).
    public mutating func addServerHeaders(requestID: String) {
        headers.replaceOrAdd(name: "X-Request-Id", value: requestID)
        headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        if status >= 400, headers["Cache-Control"] == nil {
            headers.replaceOrAdd(name: "Cache-Control", value: "private, no-store")
        }
    }
}
