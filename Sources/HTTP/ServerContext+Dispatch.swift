import CMicroHTTPD
import Observability

// How a request reaches a handler without a network thread ever waiting for it:
//
//   network thread: body complete → admitted? (429) → queue has room? (503) → suspend
//                   the connection → submit the job
//   worker:         run the handler → an answer: `complete`
//                                   → a deferral: `park` (no thread holds it)
//   wake-up:        submit `resume` to the workers (→ answer or another deferral)
//   deadline:       the sweeper runs `expired` → `complete`
//   `complete`:     leave the outcome in the request's handoff, resume the connection
//   network thread: called again by libmicrohttpd → `resumed` queues the outcome
//
// A suspended connection is neither read nor closed by libmicrohttpd, so its pointer
// stays valid until it is resumed, which happens exactly once, under `suspensions`.

extension ServerContext {
    /// The credential fields a request may carry once each (every client credential header
    /// but `Cookie`), and `Proxy-Authorization`.
    var singletonCredentialFields: [String] {
        configuration.clientCredentialHeaders.filter { !HTTPHeaders.sameName($0, "Cookie") } + ["Proxy-Authorization"]
    }

    /// The client a request counts against: the one its credential proves
    /// (`admissionClient`), else its address (an IPv6 address by its /64).
    func clientKey(of state: RequestState) -> String {
        if let client = configuration.admissionClient?(state.headers) { return "client:" + client }
        return "address:" + ClientNetwork.key(of: state.remoteAddress)
    }

    func dispatch(_ match: Router.Match, state: RequestState, connection: OpaquePointer) -> Bool {
        let client = clientKey(of: state)
        guard admission.enter(client) else {
            let response = router.problemResponse(Problem(
                status: 429, code: "too_many_requests",
                detail: "This client has \(admission.limit) requests in progress already; retry when one has been answered.",
                retryAfter: 1), path: state.path)
            return queue(response, state: state, connection: connection, closing: false)
        }
        state.admittedClient = client
        let handle = ConnectionHandle(pointer: connection)
        let suspended = suspensions.withLock { s -> Bool in
            guard s.accepting else { return false }
            s.requests[ObjectIdentifier(state)] = (state, handle)
            MHD_suspend_connection(connection)
            return true
        }
        guard suspended else {
            releaseClient(state)
            return queue(shuttingDownResponse(state), state: state, connection: connection, closing: true)
        }
        state.phase = .dispatched
        state.dispatchedAt = .now
        let request = match.request
        let accepted = workers.submit(client: client) { [self] in
            noteWait(state)
            let step = router.run({ try match.route.handler(request) }, path: request.path, route: match.route.pattern,
                                  requestID: request.requestID)
            proceed(step, state: state)
        }
        if !accepted { complete(state, overloaded(state)) }
        return true
    }

    /// Called by libmicrohttpd after `complete` resumed the connection: sends the answer.
    func resumed(_ state: RequestState, connection: OpaquePointer) -> Bool {
        guard let outcome = state.handoff.withLock({ $0.outcome.take() }) else {
            // Resumed without an answer cannot happen; close rather than spin.
            logger.error("connection resumed without an answer", ["request_id": .string(state.requestID)])
            return false
        }
        state.route = outcome.route ?? state.route
        logFailure(outcome, state: state)
        return queue(outcome.response, state: state, connection: connection, closing: false)
    }

    /// Where a handler or continuation ended: an answer, or a wait to park.
    func proceed(_ step: Router.Step, state: RequestState) {
        switch step {
        case .done(let outcome): complete(state, outcome)
        case .deferred(let deferral, let route): park(state, deferral, route: route)
        }
    }

    /// Starts the deferral's wait; no thread holds the request while it lasts.
    func park(_ state: RequestState, _ deferral: HTTPDeferral, route: String) {
        let parkedAt = ContinuousClock.now
        state.handoff.withLock {
            $0.parked = RequestState.ParkedWait(deadline: parkedAt + deferral.timeout, deferral: deferral, route: route, cancel: nil)
        }
        let cancel = deferral.start { [self] in
            guard let parked = claimParked(state) else { return }
            state.waited.withLock { $0 += .now - parkedAt }
            let submitted = workers.submit(client: state.admittedClient ?? "") { [self] in
                noteWait(state)
                proceed(router.run(parked.deferral.resume, path: state.path, route: parked.route, requestID: state.requestID),
                        state: state)
            }
            if !submitted { complete(state, overloaded(state)) }
        }
        // The wait may have ended already (inside `start`): then the cancel has no one to cancel.
        state.handoff.withLock { if $0.parked != nil { $0.parked?.cancel = cancel } }
    }

    /// Takes the parked wait, once: whoever gets it (wake-up, deadline, shutdown) answers.
    func claimParked(_ state: RequestState) -> RequestState.ParkedWait? {
        state.handoff.withLock { $0.parked.take() }
    }

    /// Leaves the answer for the network thread and resumes the connection.
    func complete(_ state: RequestState, _ outcome: Router.Outcome) {
        state.handoff.withLock { $0.outcome = outcome }
        suspensions.withLock { s in
            guard let entry = s.requests.removeValue(forKey: ObjectIdentifier(state)) else { return }
            MHD_resume_connection(entry.connection.pointer)
        }
    }

    /// Frees the request's place among its client's requests (once).
    func releaseClient(_ state: RequestState) {
        guard let client = state.admittedClient else { return }
        state.admittedClient = nil
        admission.leave(client)
    }

    /// Counts the time since the request was handed to the workers as waiting.
    private func noteWait(_ state: RequestState) {
        guard let since = state.dispatchedAt else { return }
        state.waited.withLock { $0 += .now - since }
    }

    func overloaded(_ state: RequestState) -> Router.Outcome {
        let response = router.problemResponse(Problem(
            status: 503, code: "overloaded",
            detail: "The server has \(workers.queueLimit) requests waiting for a thread already; retry shortly.", retryAfter: 1),
            path: state.path)
        return Router.Outcome(response: response, route: state.route, error: nil)
    }

    func shuttingDownResponse(_ state: RequestState) -> HTTPResponse {
        router.problemResponse(Problem(
            status: 503, code: "shutting_down", detail: "The server is shutting down; retry on another instance.", retryAfter: 1),
            path: state.path)
    }

    // MARK: - Deadlines

    /// Holds every connection to its head and body deadlines and every parked request to
    /// its wait's deadline; the sweeper calls it a few times a second.
    func sweep(now: ContinuousClock.Instant) {
        connections.withLock { records in
            for record in records.values { cutIfLate(record, now: now) }
        }
        let expired = suspensions.withLock { s in
            s.requests.values.compactMap { entry -> RequestState? in
                let due = entry.state.handoff.withLock { $0.parked.map { $0.deadline <= now } ?? false }
                return due ? entry.state : nil
            }
        }
        for state in expired {
            guard let parked = claimParked(state) else { continue }
            parked.cancel?()
            state.waited.withLock { $0 += parked.deferral.timeout }
            proceed(router.run(parked.deferral.expired, path: state.path, route: parked.route, requestID: state.requestID),
                    state: state)
        }
    }

    /// Called under the `connections` lock, so the socket is still this connection's.
    private func cutIfLate(_ record: ConnectionRecord, now: ContinuousClock.Instant) {
        let late: (requestID: String?, target: String?, phase: String)? = record.state.withLock { s in
            switch s.phase {
            case .idle(let received):
                // The first byte of the next request starts its head deadline.
                if record.bytesReceived > received {
                    s.phase = .head(deadline: now + .seconds(configuration.requestHeadTimeoutSeconds))
                    s.requestID = nil
                    s.target = nil
                }
                return nil
            case .head(let deadline) where deadline <= now:
                s.phase = .timedOut
                return (s.requestID, s.target, "head")
            case .body(let deadline) where deadline <= now:
                s.phase = .timedOut
                return (s.requestID, s.target, "body")
            default:
                return nil
            }
        }
        guard let late else { return }
        let seconds = late.phase == "head" ? configuration.requestHeadTimeoutSeconds : configuration.requestBodyTimeoutSeconds
        var response = router.problemResponse(Problem(
            status: 408, code: "request_timeout",
            detail: "The request's \(late.phase) was not received within \(Self.format(seconds)) seconds."), path: late.target ?? "")
        let requestID = late.requestID ?? RequestID.generate()
        response.addServerHeaders(requestID: requestID)
        Self.sendBestEffort(response.wireBytes(), to: record.descriptor)
        // libmicrohttpd sees the end of the stream, closes the connection and reports the
        // request (if its line was in) as finished; the log line then says 408.
        shutdown(record.descriptor, Int32(SHUT_RDWR))
        logger.info("request cut at its deadline", ["request_id": .string(requestID), "phase": .string(late.phase)])
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    // MARK: - Shutdown

    /// Answers every request still suspended with 503 and resumes it, then refuses new
    /// suspensions: libmicrohttpd must not be stopped with a connection suspended.
    func abandonSuspended() -> Int {
        let abandoned = suspensions.withLock { s -> [RequestState] in
            s.accepting = false
            let states = s.requests.values.map(\.state)
            for entry in s.requests.values {
                let response = shuttingDownResponse(entry.state)
                entry.state.handoff.withLock { h in
                    h.parked?.cancel?()
                    h.parked = nil
                    h.outcome = Router.Outcome(response: response, route: entry.state.route, error: nil)
                }
                MHD_resume_connection(entry.connection.pointer)
            }
            s.requests.removeAll()
            return states
        }
        return abandoned.count
    }
}
