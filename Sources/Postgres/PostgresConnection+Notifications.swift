import CLibPQ
import Glibc

/// A `NOTIFY` received on a channel this connection listens to.
public struct PostgresNotification: Sendable, Equatable {
    public var channel: String
    public var payload: String
    public var senderPID: Int32
}

extension PostgresConnection {
    /// Subscribes to a channel. Channel names are fixed by the code, never user input.
    public func listen(_ channel: String) throws {
        try query("LISTEN " + quoteIdentifier(channel))
    }

    public func unlisten(_ channel: String) throws {
        try query("UNLISTEN " + quoteIdentifier(channel))
    }

    /// Waits up to `timeout` seconds for notifications and returns those that arrived
    /// (empty on timeout). Throws `connectionLost` if the server went away.
    public func waitForNotifications(timeout: Double) throws -> [PostgresNotification] {
        try withUnsafeConnection { connection in
            var received = drain(connection)
            if !received.isEmpty { return received }
            let socket = PQsocket(connection)
            guard socket >= 0 else {
                throw PostgresError(code: .connectionLost, message: "the connection has no socket")
            }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(max(0, min(timeout, 3600)) * 1000)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0 && errno != EINTR {
                throw PostgresError(code: .connectionLost, message: "poll failed: errno \(errno)")
            }
            if ready > 0 {
                if PQconsumeInput(connection) == 0 {
                    throw PostgresError(code: .connectionLost, message: Self.trimmed(PQerrorMessage(connection)))
                }
                received = drain(connection)
            }
            return received
        }
    }

    private func drain(_ connection: OpaquePointer) -> [PostgresNotification] {
        var out = [PostgresNotification]()
        _ = PQconsumeInput(connection)
        while let notify = PQnotifies(connection) {
            let n = notify.pointee
            out.append(PostgresNotification(channel: String(cString: n.relname), payload: String(cString: n.extra), senderPID: n.be_pid))
            PQfreemem(notify)
        }
        return out
    }
}
