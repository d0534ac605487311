import CMicroHTTPD
import Observability

// How the limits behave, as read in libmicrohttpd 0.9.75's source and measured against
// the Debian build (tests in ServerLimitTests and RawProtocolTests):
//
// - Header size. libmicrohttpd keeps the request line and header fields in the
//   connection's memory pool (MHD_OPTION_CONNECTION_MEMORY_LIMIT). When they overflow it,
//   it answers by itself and closes: 414 "URI Too Long" if the request line alone did not
//   fit, otherwise 431 "Request Header Fields Too Large", both with a small HTML body and
//   without our X-Request-Id; the access handler never runs. The pool is therefore sized
//   at twice maxHeaderBytes plus 16 KiB, and `headersReceived` enforces maxHeaderBytes
//   itself (MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE) with a 431 (or 414 for a long
//   target) in the surface's shape. libmicrohttpd's own 431/414 remains only for heads
//   several times over the limit; both kinds are logged (its status is read back).
// - Syntax. libmicrohttpd also answers by itself, before any callback of ours, a request
//   line or header line it cannot split, an HTTP version other than 1.x, a Content-Length
//   that is not a number and a malformed chunk. Everything it lets through is checked by
//   `RequestHeadRules` (RFC 9112) and answered in the surface's shape.
// - Body size. A response can be queued only before the body is read or after all of it
//   (MHD_queue_response refuses one in between). A declared Content-Length over the limit
//   is answered 413 before any body is read, and libmicrohttpd then closes the connection.
//   A chunked body is counted as it streams; past the limit it is drained and answered
//   413 at its end, or, if it goes on past a drain allowance, the 413 is written to the
//   socket directly and the connection closed (the client may then see a reset instead).
// - Timeouts. MHD_OPTION_CONNECTION_TIMEOUT closes a connection idle that long, and
//   reports MHD_REQUEST_TERMINATED_TIMEOUT_REACHED while the socket is still open; a
//   started request then gets a 408 written first. It is an idle timeout: a client that
//   sends a byte now and then resets it forever, so the sweeper also holds each request
//   to a deadline for its head (from its first byte) and one for its body.
// - Connections. At MHD_OPTION_CONNECTION_LIMIT libmicrohttpd stops polling the listening
//   socket, so further clients wait in the kernel's backlog rather than being refused.
//   Its limit is set above maxConnections and `connectionOpened` answers the excess with
//   a 503 problem instead.

extension ServerContext {
    func requestStarted(rawTarget: String, connection: ConnectionRecord) -> RequestState {
        let state = RequestState(rawTarget: rawTarget, connection: connection)
        connection.requestLineReceived(deadline: .now + .seconds(configuration.requestHeadTimeoutSeconds),
                                       requestID: state.requestID, target: rawTarget)
        inFlight.add(1, ordering: .relaxed)
        metrics?.inFlight.increment()
        return state
    }

    /// Checks what can be checked before the body is read. `false` closes the connection.
    func headersReceived(_ state: RequestState, method: String, version: String, connection: OpaquePointer) -> Bool {
        state.phase = .receivingBody
        state.method = method
        state.version = version
        state.headers = Self.requestHeaders(connection)
        // The id drawn when the request line came in stands unless the client sent its own.
        if let incoming = state.headers["X-Request-Id"], RequestID.isValid(incoming) { state.requestID = incoming }
        state.remoteAddress = configuration.trustedProxies.client(peer: Self.clientIP(connection),
                                                                 forwardedFor: state.headers.values(for: "X-Forwarded-For"))
        state.connection.setPhase(.body(deadline: .now + .seconds(configuration.requestBodyTimeoutSeconds)),
                                  requestID: state.requestID)
        state.target = try? RequestTarget(parsing: state.rawTarget)
        if state.rawTarget.utf8.count > maxHeaderBytes {
            return answerEarly(state, Problem(
                status: 414, code: "uri_too_long",
                detail: "The request target is longer than \(maxHeaderBytes) bytes."), connection: connection)
        }
        let headerBytes = ledger_mhd_request_header_size(connection)
        if headerBytes > maxHeaderBytes {
            return answerEarly(state, Problem(
                status: 431, code: "request_header_fields_too_large",
                detail: "The request line and header fields take \(headerBytes) bytes; the limit is \(maxHeaderBytes)."),
                connection: connection)
        }
        if let problem = RequestHeadRules.check(method: method, version: version, headers: state.headers,
                                                  credentialFields: singletonCredentialFields) {
            return answerEarly(state, problem, connection: connection)
        }
        do throws(Problem) {
            state.target = try RequestTarget(parsing: state.rawTarget)
        } catch {
            return answerEarly(state, error, connection: connection)
        }
        if let declared = state.headers["Content-Length"].flatMap({ Int($0) }), declared > configuration.maxBodyBytes {
            return answerEarly(state, bodyTooLarge(), connection: connection)
        }
        return true
    }

    /// Keeps a piece of the body, or drains it once the body is over the limit. `false`
    /// closes the connection.
    func bodyReceived(_ state: RequestState, _ chunk: UnsafeRawBufferPointer, connection: OpaquePointer) -> Bool {
        state.bytesIn += chunk.count
        if !state.bodyTooLarge, state.bytesIn > configuration.maxBodyBytes {
            state.bodyTooLarge = true
            state.body = []
        }
        guard state.bodyTooLarge else {
            state.body.append(contentsOf: chunk)
            return true
        }
        // libmicrohttpd 0.9.75 accepts a response only before the body or after all of it.
        // A body a little over the limit is drained and answered properly at its end; one
        // that keeps coming gets the 413 written straight to the socket, then closed.
        if state.bytesIn > configuration.maxBodyBytes + drainAllowance {
            writeDirectly(router.problemResponse(bodyTooLarge(), path: state.path), state: state, connection: connection)
            return false
        }
        return true
    }

    /// The body is complete: answer at once (an inline route, a refusal) or hand the
    /// request to a worker with the connection suspended.
    func requestComplete(_ state: RequestState, connection: OpaquePointer) -> Bool {
        state.connection.setPhase(.handling)
        if state.bodyTooLarge {
            return answerEarly(state, bodyTooLarge(), connection: connection)
        }
        guard var request = makeRequest(state) else { return false }
        request.body = state.body
        state.body = []
        switch router.resolve(request) {
        case .answered(let outcome):
            state.route = outcome.route
            return queue(outcome.response, state: state, connection: connection, closing: false)
        case .matched(let match) where match.route.inline:
            let outcome = router.runToCompletion(match)
            state.route = outcome.route
            logFailure(outcome, state: state)
            return queue(outcome.response, state: state, connection: connection, closing: false)
        case .matched(let match):
            state.route = match.route.pattern
            return dispatch(match, state: state, connection: connection)
        }
    }

    /// Logs and counts a finished request. A request that timed out before it could be
    /// answered gets its 408 here, written straight to the socket before it is closed.
    func requestFinished(_ state: RequestState, termination: MHD_RequestTerminationCode, connection: OpaquePointer) {
        inFlight.subtract(1, ordering: .relaxed)
        releaseClient(state)
        if state.status == nil {
            let libraryStatus = Int(ledger_mhd_http_status(connection))
            if state.connection.timedOut {
                state.status = 408  // Written by the sweeper.
            } else if libraryStatus > 0 {
                state.status = libraryStatus  // libmicrohttpd's own error response (e.g. its 431).
            } else if termination == .REQUEST_TERMINATED_TIMEOUT_REACHED {
                writeDirectly(router.problemResponse(Problem(
                    status: 408, code: "request_timeout",
                    detail: "The request was not received completely within \(configuration.connectionTimeoutSeconds) seconds."),
                    path: state.path), state: state, connection: connection)
            }
        }
        state.connection.setPhase(.idle(bytesReceived: state.connection.bytesReceived))
        record(state, termination: termination)
    }

    // MARK: - Helpers

    /// How far past `maxBodyBytes` a body is drained before the connection is cut.
    private var drainAllowance: Int { max(configuration.maxBodyBytes, 64 * 1024) }

    func bodyTooLarge() -> Problem {
        Problem(status: 413, code: "payload_too_large", detail: "The body is larger than \(configuration.maxBodyBytes) bytes.")
    }

    /// The request as far as it is known (no body), or `nil` before the target is parsed.
    func makeRequest(_ state: RequestState) -> HTTPRequest? {
        guard let target = state.target else { return nil }
        var request = HTTPRequest(
            method: state.method, path: target.path, queryItems: target.queryItems, headers: state.headers,
            remoteAddress: state.remoteAddress, requestID: state.requestID, receivedAt: state.receivedAt)
        request.encodedPath = target.encodedPath
        return request
    }

    /// Answers before (or instead of) reading the body; the connection is closed after it.
    func answerEarly(_ state: RequestState, _ problem: Problem, connection: OpaquePointer) -> Bool {
        state.route = makeRequest(state).flatMap { router.pattern(for: $0) }
        return queue(router.problemResponse(problem, path: state.path), state: state, connection: connection, closing: true)
    }

    func queue(_ response: HTTPResponse, state: RequestState, connection: OpaquePointer, closing: Bool) -> Bool {
        var response = response
        if !(200...599).contains(response.status) {
            logger.error("handler returned an invalid status", ["request_id": .string(state.requestID), "status": .int(response.status)])
            response = router.problemResponse(
                Problem(status: 500, code: "internal_error", detail: "The server produced an invalid response."), path: state.path)
        }
        response.addServerHeaders(requestID: state.requestID)
        if closing || shuttingDown.load(ordering: .relaxed) {
            response.headers.replaceOrAdd(name: "Connection", value: "close")
        }
        state.phase = .answered
        state.status = response.status
        state.bytesOut = state.method == "HEAD" ? 0 : response.body.count
        state.connection.setPhase(.handling)
        guard let prepared = MicroHTTPDResponse(body: response.body) else { return false }
        for (name, value) in response.headers where !HTTPHeaders.sameName(name, "Content-Length") {
            if !prepared.addHeader(name: name, value: value) {
                logger.warning("response header refused", ["request_id": .string(state.requestID), "header": .string(name)])
            }
        }
        return prepared.queue(on: connection, status: response.status)
    }

    /// A handler's hidden error, for the operators (never sent to the client).
    func logFailure(_ outcome: Router.Outcome, state: RequestState) {
        guard let error = outcome.error else { return }
        let fields: [(key: String, value: LogValue)] = [
            ("request_id", .string(state.requestID)), ("route", .string(outcome.route ?? "unmatched")),
            ("status", .int(outcome.response.status)), ("error", .string(String(reflecting: error))),
        ]
        // A mapped error (a database that is down) is the dependency's failure, not ours.
        logger.log(outcome.response.status >= 500 && outcome.response.status != 503 ? .error : .warning,
                   "handler failed", fields: fields)
    }

    private func record(_ state: RequestState, termination: MHD_RequestTerminationCode) {
        let elapsed = ContinuousClock.now - state.started
        let seconds = elapsed.seconds
        // 499 (as nginx logs it): the client went away before any response was sent.
        let status = state.status ?? 499
        let route = state.route ?? "unmatched"
        var fields: [(key: String, value: LogValue)] = [
            ("request_id", .string(state.requestID)), ("method", .string(state.method)),
            ("path", .string(state.pathForLog)), ("route", .string(route)), ("status", .int(status)),
            ("duration_ms", .double(Self.milliseconds(seconds))), ("bytes_in", .int(state.bytesIn)),
            ("bytes_out", .int(state.bytesOut)), ("remote", .string(state.remoteAddress)),
        ]
        let waited = state.waited.withLock { $0 }
        if waited > .zero { fields.append(("waited_ms", .double(Self.milliseconds(waited.seconds)))) }
        if let reason = Self.terminationReason(termination) { fields.append(("termination", .string(reason))) }
        logger.log(.info, "request", fields: fields)
        if let metrics {
            metrics.inFlight.decrement()
            metrics.requests.increment(labels: [
                "method": ServerMetrics.methodLabel(state.method), "route": route, "status": String(status),
            ])
            metrics.duration.observe(seconds, labels: ["route": route])
        }
    }

    private static func milliseconds(_ seconds: Double) -> Double { (seconds * 1_000_000).rounded() / 1000 }

    private static func terminationReason(_ code: MHD_RequestTerminationCode) -> String? {
        switch code {
        case .REQUEST_TERMINATED_COMPLETED_OK: return nil
        case .REQUEST_TERMINATED_WITH_ERROR: return "error"
        case .REQUEST_TERMINATED_TIMEOUT_REACHED: return "timeout"
        case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: return "shutdown"
        case .REQUEST_TERMINATED_READ_ERROR: return "read_error"
        case .REQUEST_TERMINATED_CLIENT_ABORT: return "client_abort"
        }
    }
}
