import HTTP
import LedgerJSON

extension StripeStandIn {
    typealias Handler = @Sendable (HTTPRequest, StripeStandInAccount) -> HTTPResponse

    func routes(_ router: inout Router) {
        let endpoints: [(String, String, Handler)] = [
            ("GET", "/v1/events", { [unowned self] in listEvents($0, account: $1) }),
            ("GET", "/v1/events/{id}", { [unowned self] in retrieveEvent($0, account: $1) }),
        ]
        for (method, pattern, handler) in endpoints {
            router.add(method, pattern) { [unowned self] request in
                let response = answer(request, handler)
                store.state.withLock {
                    $0.requests.append(Request(method: request.method, path: request.path,
                                               query: request.queryItems.map { "\($0.name)=\($0.value)" },
                                               stripeVersion: request.headers["Stripe-Version"], status: response.status))
                }
                return response
            }
        }
        // A path or method Stripe does not have is answered in Stripe's shape too.
        router.setProblemShape(forPathsUnder: "/") { problem in
            Self.stripeError(problem.status, type: "invalid_request_error", message: problem.detail)
        }
    }

    /// The key check, then a fault if one is queued, then the endpoint.
    private func answer(_ request: HTTPRequest, _ handler: Handler) -> HTTPResponse {
        guard let authorization = request.headers["Authorization"], authorization.hasPrefix("Bearer "),
              case let key = String(authorization.dropFirst("Bearer ".count)), !key.isEmpty else {
            return Self.stripeError(401, type: "invalid_request_error",
                                    message: "You did not provide an API key. Provide it in the Authorization header, using Bearer auth.")
        }
        guard let account = configuration.accounts.first(where: { $0.secretKey == key }) else {
            return Self.stripeError(401, type: "invalid_request_error", message: "Invalid API Key provided: \(Self.masked(key))")
        }
        if let fault = store.state.withLock({ $0.faults.isEmpty ? nil : $0.faults.removeFirst() }) {
            var response = HTTPResponse.json(fault.body, status: fault.status)
            if let retry = fault.shouldRetry { response.headers.replaceOrAdd(name: "Stripe-Should-Retry", value: retry ? "true" : "false") }
            return response
        }
        var response = handler(request, account)
        response.headers.replaceOrAdd(name: "Request-Id", value: StripeID.make("req_", length: 14))
        return response
    }

    /// A key as Stripe quotes one it refuses: the prefix, stars, the last four characters.
    static func masked(_ key: String) -> String {
        let prefix = ["sk_test_", "sk_live_", "rk_test_", "rk_live_"].first { key.hasPrefix($0) } ?? ""
        let rest = key.dropFirst(prefix.count)
        guard rest.count > 4 else { return prefix + String(repeating: "*", count: rest.count) }
        return prefix + String(repeating: "*", count: rest.count - 4) + rest.suffix(4)
    }

    static func stripeError(_ status: Int, type: String, code: String? = nil, param: String? = nil, message: String) -> HTTPResponse {
        .json(errorBody(type: type, code: code, param: param, message: message), status: status)
    }

    static func errorBody(type: String, code: String? = nil, param: String? = nil, message: String) -> JSONValue {
        var error: [String: JSONValue] = ["type": .string(type), "message": .string(message)]
        if let code { error["code"] = .string(code) }
        if let param { error["param"] = .string(param) }
        return ["error": .object(error)]
    }

    /// What Stripe answers with `status` when it fails on its side or refuses the rate.
    static func errorBody(status: Int) -> JSONValue {
        switch status {
        case 429: errorBody(type: "invalid_request_error", code: "rate_limit", message: "Request rate limit exceeded.")
        case 500...: errorBody(type: "api_error", message: "An unknown error occurred.")
        default: errorBody(type: "invalid_request_error", message: "The request could not be answered.")
        }
    }

    // MARK: - Events

    private func retrieveEvent(_ request: HTTPRequest, account: StripeStandInAccount) -> HTTPResponse {
        let id = request.pathParameters["id"] ?? ""
        guard let event = store.state.withLock({ s in s.events.first { $0.id == id && $0.account == account.id } }) else {
            return Self.stripeError(404, type: "invalid_request_error", code: "resource_missing", param: "id", message: "No such event: '\(id)'")
        }
        return .json(event.json)
    }

    private func listEvents(_ request: HTTPRequest, account: StripeStandInAccount) -> HTTPResponse {
        let query: StripeEventListQuery
        do {
            query = try StripeEventListQuery(request.queryItems)
        } catch {
            return Self.stripeError(400, type: "invalid_request_error", code: error.code, param: error.param, message: error.message)
        }
        // Newest first; of events created in the same second, the one recorded last first.
        let ordered = store.state.withLock { s in
            s.events.enumerated().filter { $0.element.account == account.id }
                .sorted { ($0.element.created, $0.offset) > ($1.element.created, $1.offset) }.map(\.element)
        }
        var window = ordered[...]
        for (cursor, name) in [(query.startingAfter, "starting_after"), (query.endingBefore, "ending_before")] {
            guard let cursor else { continue }
            guard let position = ordered.firstIndex(where: { $0.id == cursor }) else {
                return Self.stripeError(400, type: "invalid_request_error", code: "resource_missing", param: name,
                                        message: "No such event: '\(cursor)'")
            }
            window = name == "starting_after" ? ordered[(position + 1)...] : ordered[..<position]
        }
        let selected = window.filter(query.matches)
        let page = query.endingBefore == nil ? Array(selected.prefix(query.limit)) : Array(selected.suffix(query.limit))
        return .json([
            "object": "list", "url": "/v1/events", "has_more": .bool(selected.count > page.count),
            "data": .array(page.map(\.json)),
        ] as JSONValue)
    }
}
