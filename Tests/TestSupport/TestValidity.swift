import LedgerDomain

/// A certificate's validity window, in whole seconds (what X.509 keeps).
public struct TestValidity: Sendable {
    public var notBefore: Timestamp
    public var notAfter: Timestamp

    public init(notBefore: Timestamp, notAfter: Timestamp) {
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    /// From `daysBefore` days before now (negative: in the past) to `daysAfter` days after.
    public static func around(now daysBefore: Int, _ daysAfter: Int) -> TestValidity {
        let now = TestClock.now.microseconds
        let day: Int64 = 86_400_000_000
        return TestValidity(notBefore: Timestamp(microseconds: now + Int64(daysBefore) * day)!,
                            notAfter: Timestamp(microseconds: now + Int64(daysAfter) * day)!)
    }

    var notBeforeSecond: Int64 { notBefore.microseconds / 1_000_000 }
    var notAfterSecond: Int64 { notAfter.microseconds / 1_000_000 }
}
