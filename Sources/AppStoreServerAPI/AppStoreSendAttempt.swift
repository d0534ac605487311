import Foundation

/// One attempt of Apple's to send a notification (`sendAttemptItem`): when, and its
/// `sendAttemptResult` (`SUCCESS`, `TIMED_OUT`, `TLS_ISSUE`, `CIRCULAR_REDIRECT`,
/// `NO_RESPONSE`, `SOCKET_ISSUE`, `UNSUPPORTED_CHARSET`, `INVALID_RESPONSE`,
/// `PREMATURE_CLOSE`, `UNSUCCESSFUL_HTTP_RESPONSE_CODE`, `OTHER`; kept as text, so that a new
/// one is not lost).
public struct AppStoreSendAttempt: Sendable, Equatable {
    public static let success = "SUCCESS"

    /// `attemptDate`, at Apple's millisecond precision.
    public var attemptDate: Date?
    public var result: String

    public init(attemptDate: Date?, result: String) {
        self.attemptDate = attemptDate
        self.result = result
    }
}
