import CMicroHTTPD
import Observability

#if canImport(Glibc)
import Glibc
#endif

extension ServerContext {
    /// Records a new connection; one over the limit is answered 503 and marked refused.
    func connectionOpened(_ connection: OpaquePointer) -> ConnectionRecord {
        let open = openConnections.add(1, ordering: .relaxed).newValue
        let descriptor = ledger_mhd_connection_fd(connection)
        let refused = open > configuration.maxConnections
        let record = ConnectionRecord(descriptor: descriptor, refused: refused, address: addressKey(Self.clientIP(connection)))
        if refused, descriptor >= 0 {
            var response = router.problemResponse(Problem(
                status: 503, code: "too_many_connections",
                detail: "The server has \(configuration.maxConnections) connections open; retry shortly.", retryAfter: 1), path: "/")
            response.addServerHeaders(requestID: RequestID.generate())
            Self.sendBestEffort(response.wireBytes(), to: descriptor)
            // Half-close: the 503 is followed by FIN, and libmicrohttpd closes the socket when
            // the client does (or at the timeout), without the reset that a full close over
            // unread request bytes would send.
            shutdown(descriptor, Int32(SHUT_WR))
            logger.warning("connection refused", ["open_connections": .int(open), "limit": .int(configuration.maxConnections)])
        }
        if !refused {
            connections.withLock { $0[ObjectIdentifier(record)] = record }
        }
        return record
    }

    func connectionClosed(_ record: ConnectionRecord) {
        connections.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(record)) }
        if let address = record.address { addresses.leave(address) }
        openConnections.subtract(1, ordering: .relaxed)
    }

    /// The key a peer's connections are counted under, nil for a trusted proxy (whose
    /// clients are many): the same for the accept loop, which counts a connection in,
    /// and for the close notification, which counts it out.
    func addressKey(_ peer: String) -> String? {
        configuration.trustedProxies.contains(peer) ? nil : ClientNetwork.key(of: peer)
    }

    /// Writes a whole response to the socket behind libmicrohttpd's back, for the cases it
    /// offers no way to answer; libmicrohttpd closes the connection afterwards.
    func writeDirectly(_ response: HTTPResponse, state: RequestState, connection: OpaquePointer) {
        var response = response
        response.addServerHeaders(requestID: state.requestID)
        state.phase = .answered
        state.status = response.status
        state.bytesOut = response.body.count
        let descriptor = ledger_mhd_connection_fd(connection)
        if descriptor >= 0 { Self.sendBestEffort(response.wireBytes(), to: descriptor) }
    }

    /// One non-blocking send: these responses are a few hundred bytes, which an idle
    /// socket's send buffer always takes, and blocking a thread on a client that is not
    /// reading is worse than losing the response.
    static func sendBestEffort(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let sent = send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                if sent < 0 && errno == EINTR { continue }
                if sent <= 0 { return }
                offset += sent
            }
        }
    }

    /// The request's header fields, in order.
    static func requestHeaders(_ connection: OpaquePointer) -> HTTPHeaders {
        var headers = HTTPHeaders()
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, collectHeader, UnsafeMutableRawPointer(pointer))
        }
        return headers
    }

    static func clientIP(_ connection: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        return buffer.withUnsafeMutableBufferPointer { bytes in
            guard ledger_mhd_client_ip(connection, bytes.baseAddress, socklen_t(bytes.count)) == 0 else { return "unknown" }
            return String(cString: bytes.baseAddress!)
        }
    }

    /// libmicrohttpd's diagnostics. Its refusals of requests it could not parse (which it
    /// answers itself, before any callback of ours) are worth an operator's eye; the rest
    /// (clients that vanished mid-send and the like) is debug noise.
    func libraryMessage(_ message: String) {
        let text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        let level: Logger.Level = text.hasPrefix("Error processing request") ? .info : .debug
        logger.log(level, "libmicrohttpd", fields: [("message", .string(text))])
    }
}

/// `MHD_KeyValueIterator` that appends each header field to the `HTTPHeaders` behind `cls`.
private func collectHeader(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let headers = cls.assumingMemoryBound(to: HTTPHeaders.self)
    headers.pointee.add(name: String(cString: key), value: value.map { String(cString: $0) } ?? "")
    return .YES
}
