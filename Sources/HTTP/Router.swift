import LedgerJSON

/// Answers one request; may block (on the database, say) and may throw a `Problem`, an
/// `HTTPError`, or anything else (which becomes a 500 whose detail reveals nothing).
public typealias HTTPHandler = @Sendable (HTTPRequest) throws -> HTTPResponse

/// Maps method and path to a handler.
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
        var handler: HTTPHandler
    }

    enum RouteSegment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    /// What `respond(to:)` decided, with what the server needs to log.
    struct Outcome: Sendable {
        var response: HTTPResponse
        /// The matched pattern; `nil` when no route matched.
        var route: String?
        /// An error other than `Problem`/`HTTPError` that a handler threw: logged, never sent.
        var error: (any Error)?
    }

    private var table: [Route] = []

    public init() {}

    /// Registers `handler` for `method` and `pattern`; `operation` is its OpenAPI
    /// Operation Object, published by `openAPIPaths()`. Registering the same method and
    /// pattern twice, or a malformed pattern, is a programming error and traps.
    public mutating func add(_ method: String, _ pattern: String, operation: JSONValue? = nil, _ handler: @escaping HTTPHandler) {
        let method = method.uppercased()
        let segments = Self.parsePattern(pattern)
        precondition(
            !table.contains { $0.method == method && Self.sameShape($0.segments, segments) },
            "route \(method) \(pattern) is registered twice")
        table.append(Route(method: method, pattern: pattern, segments: segments, operation: operation, handler: handler))
    }

    /// Every route, in registration order.
    public var routes: [(method: String, pattern: String, operation: JSONValue?)] {
        table.map { (method: $0.method, pattern: $0.pattern, operation: $0.operation) }
    }

    /// The response to `request`: the handler's, or a problem (404 `not_found`, 405
    /// `method_not_allowed` with `Allow`, the handler's thrown `Problem`, 500
    /// `internal_error`). `HEAD` is served by the `GET` route, without the body.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        var response = respond(to: request).response
        if request.method == "HEAD" { response.body = [] }
        return response
    }

    /// Like `handle`, but keeps a `HEAD` response's body (the server needs its length for
    /// `Content-Length` and does not send it) and hands back the route and any hidden error.
    func respond(to request: HTTPRequest) -> Outcome {
        let segments: [String]
        do throws(Problem) {
            segments = try Self.pathSegments(of: request)
        } catch {
            return Outcome(response: .problem(error), route: nil, error: nil)
        }
        let matching = table.compactMap { route in
            Self.match(route.segments, segments).map { (route: route, parameters: $0) }
        }
        guard !matching.isEmpty else {
            return Outcome(
                response: .problem(Problem(status: 404, code: "not_found", detail: "No route matches \(request.method) \(request.path).")),
                route: nil, error: nil)
        }
        var candidates = matching.filter { $0.route.method == request.method }
        if candidates.isEmpty, request.method == "HEAD" {
            candidates = matching.filter { $0.route.method == "GET" }
        }
        guard let best = candidates.min(by: { Self.moreSpecific($0.route.segments, than: $1.route.segments) }) else {
            let allowed = Self.allowedMethods(matching.map(\.route.method))
            var response = HTTPResponse.problem(Problem(
                status: 405, code: "method_not_allowed",
                detail: "The method \(request.method) is not allowed on \(request.path); allowed: \(allowed.joined(separator: ", "))."))
            response.headers.replaceOrAdd(name: "Allow", value: allowed.joined(separator: ", "))
            let pattern = matching.min(by: { Self.moreSpecific($0.route.segments, than: $1.route.segments) })?.route.pattern
            return Outcome(response: response, route: pattern, error: nil)
        }
        var routed = request
        routed.pathParameters = best.parameters
        routed.route = best.route.pattern
        do {
            return Outcome(response: try best.route.handler(routed), route: best.route.pattern, error: nil)
        } catch let problem as Problem {
            return Outcome(response: .problem(problem), route: best.route.pattern, error: nil)
        } catch let error as HTTPError {
            return Outcome(response: error.response, route: best.route.pattern, error: nil)
        } catch {
            let problem = Problem(
                status: 500, code: "internal_error",
                detail: "The server failed to handle the request; quote the request id \(request.requestID) when reporting it.")
            return Outcome(response: .problem(problem), route: best.route.pattern, error: error)
        }
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
