/// A value Apple signed, as it came (the compact JWS, to be recorded as the fact it is) and
/// as it verified (the decoded value). A client never hands out one without the other.
public struct AppStoreSignedValue<Value: Sendable & Equatable>: Sendable, Equatable {
    /// The JWS exactly as Apple sent it.
    public var jws: String
    /// What it says, verified.
    public var value: Value

    public init(jws: String, value: Value) {
        self.jws = jws
        self.value = value
    }
}
