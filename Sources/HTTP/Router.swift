import Dispatch
import LedgerJSON
import Observability

/// Answers one request; may block (on the database, say) and may throw a `Problem`, an
/// `HTTPError`, an `HTTPDeferral` (to wait without holding a thread), or anything else
/// (which the router's `errorMapper` may turn into a problem, and otherwise becomes a 500
/// whose detail reveals nothing).
public typealias HTTPHandler = @Sendable (HTTPRequest) throws -> HTTPResponse

/// Maps method and path to a handler, and renders every error in the shape of the
/// surface the path belongs to.
///
/// Patterns are `/`-separated literal segments and `{name}` segments. A path matches a
/// pattern with the same number of segments; where several match, the one with a literal
/// at the first segment where they differ wins (`/v1/keys/current` beats `/v1/keys/{id}`).
public struct Router: Sendable {
    struct Route: Sendable {
        var method: String
        var pattern: String
        var segments: [RouteSegment]
        var operation: JSONValue?
        var inline: Bool
        var handler: HTTPHandler
    }

    enum RouteSegment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    /// Renders a problem as a response in a surface's own error shape.
    public typealias ProblemRenderer = @Sendable (Problem) -> HTTPResponse

    /// What the router decided, with what the server needs to log.
    struct Outcome: Sendable {
        var response: HTTPResponse
        /// The matched pattern; `nil` when no route matched.
        var route: String?
        /// An error other than `Problem`/`HTTPError` that a handler threw: logged, never sent.
        var error: (any Error)?
    }

    /// A request matched to its route, ready to run.
    struct Match: Sendable {
        var route: Route
        var request: HTTPRequest
    }

    enum Resolution: Sendable {
        /// Answered without a handler (404, 405, a bad path).
        case answered(Outcome)
        case matched(Match)
    }

    /// Where running a handler (or one of its continuations) ended.
    enum Step: Sendable {
        case done(Outcome)
        case deferred(HTTPDeferral, route: String)
    }

    private var table: [Route] = []
    private var shapes: [(prefix: String, render: ProblemRenderer)] = []

    /// Turns an error a handler threw into the problem to answer, when it recognises it
    /// (a database that cannot be reached is a 503, not a 500). The error is still logged.
    public var errorMapper: (@Sendable (any Error) -> Problem?)?

    public init() {}

    /// Registers `handler` for `method` and `pattern`; `operation` is its OpenAPI
    /// Operation Object, published by `openAPIPaths()`. An `inline` handler runs on the
    /// server's network thread: it must answer at once, without blocking or deferring
    /// (health, metrics from memory, a static document), and so stays fast whatever the
    /// other requests do. Registering the same method and pattern twice, or a malformed
    /// pattern, is a programming error and traps.
    public mutating func add(_ method: String, _ pattern: String, operation: JSONValue? = nil, inline: Bool = false,
                             _ handler: @escaping HTTPHandler) {
        let segments = Self.parsePattern(pattern)
        precondition(RequestHeadRules.isToken(method), "route method \(method) is not an HTTP token")
        precondition(
            !table.contains { $0.method == method && Self.sameShape($0.segments, segments) },
            "route \(method) \(pattern) is registered twice")
        table.append(Route(method: method, pattern: pattern, segments: segments, operation: operation, inline: inline,
                           handler: handler))
    }

    /// Problems on paths under `prefix` (e.g. `/v1/iap/`) are rendered by `render`
    /// instead of as `application/problem+json`; the longest matching prefix wins.
    public mutating func setProblemShape(forPathsUnder prefix: String, _ render: @escaping ProblemRenderer) {
        shapes.append((prefix, render))
        shapes.sort { $0.prefix.count > $1.prefix.count }
    }

    /// `problem` as the surface of `path` renders it. A problem answers one request and
    /// may name what the caller may see (a 404 hides an organization, a 401 a session), so
    /// no cache keeps it: without this a 404 is heuristically cacheable (RFC 9111 §4.2.2).
    public func problemResponse(_ problem: Problem, path: String) -> HTTPResponse {
        var response = shapes.first { path.hasPrefix($0.prefix) }?.render(problem) ?? .problem(problem)
        if response.headers["Cache-Control"] == nil { response.headers.replaceOrAdd(name: "Cache-Control", value: "private, no-store") }
        if let seconds = problem.retryAfter { response.headers.replaceOrAdd(name: "Retry-After", value: String(seconds)) }
        return response
    }

    /// Every route, in registration order.
    public var routes: [(method: String, pattern: String, operation: JSONValue?)] {
        table.map { (method: $0.method, pattern: $0.pattern, operation: $0.operation) }
    }

    /// Whether `method pattern` is an inline route (answered on the network thread, so
    /// never queued, limited per client or parked).
    public func isInline(_ method: String, _ pattern: String) -> Bool {
        table.contains { $0.method == method && $0.pattern == pattern && $0.inline }
    }

    /// The response to `request`, waiting (on this thread) for any deferral the handler
    /// throws: for tests and tools that call the router without a server. `HEAD` is
    /// served by the `GET` route, without the body.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        var response = respond(to: request).response
        if request.method == "HEAD" { response.body = [] }
        return response
    }

    /// Like `handle`, but keeps a `HEAD` response's body (the server needs its length for
    /// `Content-Length` and does not send it) and hands back the route and any hidden error.
    func respond(to request: HTTPRequest) -> Outcome {
        switch resolve(request) {
        case .answered(let outcome): return outcome
        case .matched(let match): return runToCompletion(match)
        }
    }

    // MARK: - Resolving and running

    func resolve(_ request: HTTPRequest) -> Resolution {
        let segments: [String]
        do throws(Problem) {
            segments = try Self.pathSegments(of: request)
        } catch {
            return .answered(Outcome(response: problemResponse(error, path: request.path), route: nil, error: nil))
        }
        let matching = table.compactMap { route in
            Self.match(route.segments, segments).map { (route: route, parameters: $0) }
        }
        guard !matching.isEmpty else {
            let problem = Problem(status: 404, code: "not_found", detail: "No route matches \(request.method) \(request.path).")
            return .answered(Outcome(response: problemResponse(problem, path: request.path), route: nil, error: nil))
        }
        var candidates = matching.filter { $0.route.method == request.method }
        if candidates.isEmpty, request.method == "HEAD" {
            candidates = matching.filter { $0.route.method == "GET" }
        }
        guard let best = candidates.min(by: { Self.moreSpecific($0.route.segments, than: $1.route.segments) }) else {
            let allowed = Self.allowedMethods(matching.map(\.route.method))
            var response = problemResponse(Problem(
                status: 405, code: "method_not_allowed",
                detail: "The method \(request.method) is not allowed on \(request.path); allowed: \(allowed.joined(separator: ", "))."),
                path: request.path)
            response.headers.replaceOrAdd(name: "Allow", value: allowed.joined(separator: ", "))
            let pattern = matching.min(by: { Self.moreSpecific($0.route.segments, than: $1.route.segments) })?.route.pattern
            return .answered(Outcome(response: response, route: pattern, error: nil))
        }
        var routed = request
        routed.pathParameters = best.parameters
        routed.route = best.route.pattern
        return .matched(Match(route: best.route, request: routed))
    }

    /// Runs a handler or a continuation, turning what it throws into an answer.
    func run(_ body: () throws -> HTTPResponse, path: String, route: String, requestID: String) -> Step {
        do {
            return .done(Outcome(response: try body(), route: route, error: nil))
        } catch let deferral as HTTPDeferral {
            return .deferred(deferral, route: route)
        } catch let problem as Problem {
            return .done(Outcome(response: problemResponse(problem, path: path), route: route, error: nil))
        } catch let error as HTTPError {
            return .done(Outcome(response: error.response, route: route, error: nil))
        } catch {
            if let problem = errorMapper?(error) {
                return .done(Outcome(response: problemResponse(problem, path: path), route: route, error: error))
            }
            let problem = Problem(
                status: 500, code: "internal_error",
                detail: "The server failed to handle the request; quote the request id \(requestID) when reporting it.")
            return .done(Outcome(response: problemResponse(problem, path: path), route: route, error: error))
        }
    }

    /// Runs a matched request, blocking this thread through any deferrals.
    func runToCompletion(_ match: Match) -> Outcome {
        let request = match.request
        var step = run({ try match.route.handler(request) }, path: request.path, route: match.route.pattern,
                       requestID: request.requestID)
        while case .deferred(let deferral, let route) = step {
            let woken = DispatchSemaphore(value: 0)
            let cancel = deferral.start { woken.signal() }
            let seconds = deferral.timeout.seconds
            if woken.wait(timeout: .now() + seconds) == .success {
                step = run(deferral.resume, path: request.path, route: route, requestID: request.requestID)
            } else {
                cancel()
                step = run(deferral.expired, path: request.path, route: route, requestID: request.requestID)
            }
        }
        guard case .done(let outcome) = step else { preconditionFailure("unreachable") }
        return outcome
    }

    /// The pattern of the route that would serve `request`, for logging requests that are
    /// refused before they are routed (too large, timed out).
    func pattern(for request: HTTPRequest) -> String? {
        guard let segments = try? Self.pathSegments(of: request) else { return nil }
        return table.filter { Self.match($0.segments, segments) != nil }
            .min(by: { Self.moreSpecific($0.segments, than: $1.segments) })?.pattern
    }

    // MARK: - Matching

    static func parsePattern(_ pattern: String) -> [RouteSegment] {
        precondition(pattern.hasPrefix("/"), "route pattern \(pattern) must start with /")
        var names = Set<String>()
        return pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { segment in
            if segment.hasPrefix("{") && segment.hasSuffix("}") && segment.count > 2 {
                let name = String(segment.dropFirst().dropLast())
                precondition(names.insert(name).inserted, "route pattern \(pattern) repeats the parameter \(name)")
                return .parameter(name)
            }
            precondition(!segment.contains("{") && !segment.contains("}"), "route pattern \(pattern) has a malformed parameter")
            return .literal(String(segment))
        }
    }

    private static func pathSegments(of request: HTTPRequest) throws(Problem) -> [String] {
        guard let encoded = request.encodedPath else {
            return request.path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        }
        return try encoded.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { segment throws(Problem) in
            guard let decoded = RequestTarget.percentDecode(segment, plusIsSpace: false) else {
                throw Problem(status: 400, code: "invalid_request_target", detail: "The path has an invalid percent-encoding.")
            }
            return decoded
        }
    }

    /// The parameter values when `path` fits `pattern`.
    private static func match(_ pattern: [RouteSegment], _ path: [String]) -> [String: String]? {
        guard pattern.count == path.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, value) in zip(pattern, path) {
            switch segment {
            case .literal(let literal): if literal != value { return nil }
            case .parameter(let name):
                if value.isEmpty { return nil }
                parameters[name] = value
            }
        }
        return parameters
    }

    /// Whether `lhs` should win over `rhs`: a literal at the first segment where they differ in kind.
    private static func moreSpecific(_ lhs: [RouteSegment], than rhs: [RouteSegment]) -> Bool {
        for (a, b) in zip(lhs, rhs) {
            switch (a, b) {
            case (.literal, .parameter): return true
            case (.parameter, .literal): return false
            default: continue
            }
        }
        return false
    }

    private static func sameShape(_ lhs: [RouteSegment], _ rhs: [RouteSegment]) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { a, b in
            switch (a, b) {
            case (.literal(let x), .literal(let y)): return x == y
            case (.parameter, .parameter): return true
            default: return false
            }
        }
    }

    private static func allowedMethods(_ methods: [String]) -> [String] {
        var set = Set(methods)
        if set.contains("GET") { set.insert("HEAD") }
        return set.sorted()
    }
}
