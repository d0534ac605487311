import CMicroHTTPD

// The C entry points given to libmicrohttpd. Each is a plain top-level function (a C
// function pointer cannot capture anything); the `ServerContext` arrives as the `cls`
// pointer, each connection's `ConnectionRecord` through its socket context and each
// request's `RequestState` through libmicrohttpd's per-request `void **`. They only
// unwrap pointers and hand over to `ServerContext`.

/// Called once the request line is in, before the header fields: the start of a request.
func microHTTPDRequestStarted(
    _ cls: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?, _ connection: OpaquePointer?
) -> UnsafeMutableRawPointer? {
    guard let cls, let uri, let connection, let record = connectionRecord(connection), !record.refused else {
        return nil
    }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    let state = context.requestStarted(rawTarget: String(cString: uri), connection: record)
    return Unmanaged.passRetained(state).toOpaque()
}

/// Called when the header is complete, for each piece of the body, once more when the
/// body is complete, and again after the connection is resumed with the answer.
func microHTTPDAccessHandler(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?, _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let uploadDataSize, let raw = requestContext?.pointee else {
        return .NO  // A refused connection: close it.
    }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
    switch state.phase {
    case .awaitingHeaders:
        return context.headersReceived(state, method: method.map { String(cString: $0) } ?? "",
                                       version: version.map { String(cString: $0) } ?? "", connection: connection)
            ? .YES : .NO
    case .receivingBody where uploadDataSize.pointee > 0:
        let chunk = UnsafeRawBufferPointer(start: uploadData, count: uploadDataSize.pointee)
        uploadDataSize.pointee = 0
        return context.bodyReceived(state, chunk, connection: connection) ? .YES : .NO
    case .receivingBody:
        return context.requestComplete(state, connection: connection) ? .YES : .NO
    case .dispatched:
        uploadDataSize.pointee = 0
        return context.resumed(state, connection: connection) ? .YES : .NO
    case .answered:
        uploadDataSize.pointee = 0
        return .YES
    }
}

/// Called once per request that `microHTTPDRequestStarted` saw, however it ended.
func microHTTPDRequestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ termination: MHD_RequestTerminationCode
) {
    guard let cls, let connection, let requestContext, let raw = requestContext.pointee else { return }
    requestContext.pointee = nil
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
    context.requestFinished(state, termination: termination, connection: connection)
}

/// Called when a connection is accepted and when it is closed (before its socket is).
func microHTTPDConnectionNotification(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ code: MHD_ConnectionNotificationCode
) {
    guard let cls, let connection, let socketContext else { return }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        let record = context.connectionOpened(connection)
        socketContext.pointee = Unmanaged.passRetained(record).toOpaque()
    case .CONNECTION_NOTIFY_CLOSED:
        guard let raw = socketContext.pointee else { return }
        socketContext.pointee = nil
        context.connectionClosed(Unmanaged<ConnectionRecord>.fromOpaque(raw).takeRetainedValue())
    }
}

/// libmicrohttpd's own messages (`MHD_OPTION_EXTERNAL_LOGGER`), already formatted by the shim.
func microHTTPDMessage(_ cls: UnsafeMutableRawPointer?, _ message: UnsafePointer<CChar>?) {
    guard let cls, let message else { return }
    Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue().libraryMessage(String(cString: message))
}

/// The connection's record, set when libmicrohttpd announced it.
private func connectionRecord(_ connection: OpaquePointer) -> ConnectionRecord? {
    guard let raw = ledger_mhd_socket_context(connection) else { return nil }
    return Unmanaged<ConnectionRecord>.fromOpaque(raw).takeUnretainedValue()
}
