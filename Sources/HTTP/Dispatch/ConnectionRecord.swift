import CSocket
import Synchronization

/// One connection, from libmicrohttpd's open notification to its close notification:
/// its socket, and where it stands in its current request, so that the sweeper can hold
/// it to the head and body deadlines that libmicrohttpd's idle timeout does not give.
final class ConnectionRecord: Sendable {
    enum Phase: Sendable, Equatable {
        /// Between requests; the socket had received this many bytes when the last one
        /// ended, so that the first byte of the next one is noticed.
        case idle(bytesReceived: UInt64)
        /// Receiving a request head, which must be complete before `deadline`.
        case head(deadline: ContinuousClock.Instant)
        /// Receiving a body, which must be complete before `deadline`.
        case body(deadline: ContinuousClock.Instant)
        /// Complete: the server, not the client, is working on it.
        case handling
        /// Cut by the sweeper, which answered 408 and shut the socket down.
        case timedOut
    }

    struct State: Sendable {
        var phase: Phase
        /// The current request's id and raw target, for a 408 the sweeper writes (in the
        /// shape of the target's surface).
        var requestID: String?
        var target: String?
    }

    let descriptor: Int32
    /// Refused at accept (over the connection limit): its requests are not served.
    let refused: Bool
    /// The address it is counted under in `AddressConnections`; nil for a trusted proxy's.
    let address: String?
    let state: Mutex<State>

    init(descriptor: Int32, refused: Bool, address: String?) {
        self.descriptor = descriptor
        self.refused = refused
        self.address = address
        self.state = Mutex(State(phase: .idle(bytesReceived: 0)))
    }

    /// Bytes the kernel has received on the socket since it opened (`TCP_INFO`).
    var bytesReceived: UInt64 { ledger_tcp_bytes_received(descriptor) }

    func setPhase(_ phase: Phase, requestID: String? = nil) {
        state.withLock { s in
            guard s.phase != .timedOut else { return }
            s.phase = phase
            if let requestID { s.requestID = requestID }
        }
    }

    /// Moves the head deadline to start now, unless a request is already under way.
    func requestLineReceived(deadline: ContinuousClock.Instant, requestID: String, target: String) {
        state.withLock { s in
            if case .idle = s.phase { s.phase = .head(deadline: deadline) }
            s.requestID = requestID
            s.target = target
        }
    }

    var timedOut: Bool { state.withLock { $0.phase == .timedOut } }
}
