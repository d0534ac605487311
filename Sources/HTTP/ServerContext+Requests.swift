import CMicroHTTPD
import Observability

// How the limits behave, as read in libmicrohttpd 0.9.75's source and measured against
// the Debian build (tests in ServerLimitTests):
//
// - Header size. libmicrohttpd keeps the request line and header fields in the
//   connection's memory pool (MHD_OPTION_CONNECTION_MEMORY_LIMIT). When they overflow it,
//   it answers by itself and closes: 414 "URI Too Long" if the request line alone did not
//   fit, otherwise 431 "Request Header Fields Too Large", both with a small HTML body and
//   without our X-Request-Id; the access handler never runs. The pool is therefore sized
//   at twice maxHeaderBytes plus 16 KiB, and `headersReceived` enforces maxHeaderBytes
//   itself (MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE) with a 431 (or 414 for a long
//   target) problem document. libmicrohttpd's own 431/414 remains only for requests
//   several times over the limit; both kinds are logged (its status is read back).
// - Body size. A response can be queued only before the body is read or after all of it
//   (MHD_queue_response refuses one in between). A declared Content-Length over the limit
//   is answered 413 before any body is read, and libmicrohttpd then closes the connection.
//   A chunked body is counted as it streams; past the limit it is drained and answered
//   413 at its end, or, if it goes on past a drain allowance, the 413 is written to the
//   socket directly and the connection closed (the client may then see a reset instead).
// - Timeout. MHD_OPTION_CONNECTION_TIMEOUT closes a connection idle that long without a
//   word, and reports MHD_REQUEST_TERMINATED_TIMEOUT_REACHED to the completion callback
//   while the socket is still open. A request counts as started once its request line is
//   in (the URI-log callback); if it has not been answered by then, the completion
//   callback writes a 408 problem to the socket before libmicrohttpd closes it. A client
//   that stalls inside the request line itself, or an idle keep-alive connection, is
//   simply closed.
// - Connections. At MHD_OPTION_CONNECTION_LIMIT libmicrohttpd stops polling the listening
//   socket, so further clients wait in the kernel's backlog rather than being refused.
//   Its limit is set above maxConnections and `connectionOpened` answers the excess with
//   a 503 problem instead.

extension ServerContext {
    func requestStarted() {
        inFlight.add(1, ordering: .relaxed)
        metrics?.inFlight.increment()
    }

    /// Checks what can be checked before the body is read. `false` closes the connection.
    func headersReceived(_ state: RequestState, method: String, connection: OpaquePointer) -> Bool {
        state.phase = .receivingBody
        state.method = method.uppercased()
        state.headers = Self.requestHeaders(connection)
        state.requestID = RequestID.resolve(incoming: state.headers["X-Request-Id"])
        state.remoteAddress = Self.clientIP(connection)
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
            writeDirectly(.problem(bodyTooLarge()), state: state, connection: connection)
            return false
        }
        return true
    }

    /// Routes the complete request and queues the response.
    func requestComplete(_ state: RequestState, connection: OpaquePointer) -> Bool {
        if state.bodyTooLarge {
            return answerEarly(state, bodyTooLarge(), connection: connection)
        }
        guard var request = makeRequest(state) else { return false }
        request.body = state.body
        state.body = []
        let outcome = router.respond(to: request)
        state.route = outcome.route
        if let error = outcome.error {
            logger.error("handler failed", [
                "request_id": .string(state.requestID), "route": .string(outcome.route ?? "unmatched"),
                "error": .string(String(reflecting: error)),
            ])
        }
        return queue(outcome.response, state: state, connection: connection, closing: false)
    }

    /// Logs and counts a finished request. A request that timed out before it could be
    /// answered gets its 408 here, written straight to the socket before it is closed.
    func requestFinished(_ state: RequestState, termination: MHD_RequestTerminationCode, connection: OpaquePointer) {
        inFlight.subtract(1, ordering: .relaxed)
        if state.status == nil {
            let libraryStatus = Int(ledger_mhd_http_status(connection))
            if libraryStatus > 0 {
                state.status = libraryStatus  // libmicrohttpd's own error response (e.g. its 431).
            } else if termination == .REQUEST_TERMINATED_TIMEOUT_REACHED {
                writeDirectly(.problem(Problem(
                    status: 408, code: "request_timeout",
                    detail: "The request was not received completely within \(configuration.connectionTimeoutSeconds) seconds.")),
                    state: state, connection: connection)
            }
        }
        record(state, termination: termination)
    }

    // MARK: - Helpers

    /// How far past `maxBodyBytes` a body is drained before the connection is cut.
    private var drainAllowance: Int { max(configuration.maxBodyBytes, 64 * 1024) }

    private func bodyTooLarge() -> Problem {
        Problem(status: 413, code: "payload_too_large", detail: "The body is larger than \(configuration.maxBodyBytes) bytes.")
    }

    /// The request as far as it is known (no body), or `nil` before the target is parsed.
    private func makeRequest(_ state: RequestState) -> HTTPRequest? {
        guard let target = state.target else { return nil }
        var request = HTTPRequest(
            method: state.method, path: target.path, queryItems: target.queryItems, headers: state.headers,
            remoteAddress: state.remoteAddress, requestID: state.requestID, receivedAt: state.receivedAt)
        request.encodedPath = target.encodedPath
        return request
    }

    /// Answers before (or instead of) reading the body; the connection is closed after it.
    private func answerEarly(_ state: RequestState, _ problem: Problem, connection: OpaquePointer) -> Bool {
        state.route = makeRequest(state).flatMap { router.pattern(for: $0) }
        return queue(.problem(problem), state: state, connection: connection, closing: true)
    }

    private func queue(_ response: HTTPResponse, state: RequestState, connection: OpaquePointer, closing: Bool) -> Bool {
        var response = response
        if !(200...599).contains(response.status) {
            logger.error("handler returned an invalid status", ["request_id": .string(state.requestID), "status": .int(response.status)])
            response = .problem(Problem(status: 500, code: "internal_error", detail: "The server produced an invalid response."))
        }
        response.headers.replaceOrAdd(name: "X-Request-Id", value: state.requestID)
        if closing || shuttingDown.load(ordering: .relaxed) {
            response.headers.replaceOrAdd(name: "Connection", value: "close")
        }
        state.phase = .answered
        state.status = response.status
        state.bytesOut = state.method == "HEAD" ? 0 : response.body.count
        guard let prepared = MicroHTTPDResponse(body: response.body) else { return false }
        for (name, value) in response.headers where !HTTPHeaders.sameName(name, "Content-Length") {
            if !prepared.addHeader(name: name, value: value) {
                logger.warning("response header refused", ["request_id": .string(state.requestID), "header": .string(name)])
            }
        }
        return prepared.queue(on: connection, status: response.status)
    }

    private func record(_ state: RequestState, termination: MHD_RequestTerminationCode) {
        let elapsed = ContinuousClock.now - state.started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        // 499 (as nginx logs it): the client went away before any response was sent.
        let status = state.status ?? 499
        let route = state.route ?? "unmatched"
        var fields: [(key: String, value: LogValue)] = [
            ("request_id", .string(state.requestID)), ("method", .string(state.method)),
            ("path", .string(state.pathForLog)), ("route", .string(route)), ("status", .int(status)),
            ("duration_ms", .double((seconds * 1_000_000).rounded() / 1000)), ("bytes_in", .int(state.bytesIn)),
            ("bytes_out", .int(state.bytesOut)), ("remote", .string(state.remoteAddress)),
        ]
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
