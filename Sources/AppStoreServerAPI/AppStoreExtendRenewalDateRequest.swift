import Foundation
import LedgerJSON

/// What Extend a Subscription Renewal Date sends (`ExtendRenewalDateRequest`).
public struct AppStoreExtendRenewalDateRequest: Sendable, Equatable {
    /// `extendByDays`: 1 to 90.
    public var extendByDays: Int
    /// `extendReasonCode`: 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.
    public var extendReasonCode: Int
    /// `requestIdentifier`: Apple extends once per identifier, so a retry (ours or the
    /// client's) never extends twice. Keep it with the act that asked for the extension.
    public var requestIdentifier: UUID

    public init(extendByDays: Int, extendReasonCode: Int, requestIdentifier: UUID) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
    }

    func validate() throws(AppStoreServerAPIError) {
        guard (1...90).contains(extendByDays) else {
            throw AppStoreServerAPIError(.invalidRequest, "extendByDays must be 1 to 90, not \(extendByDays)")
        }
        guard (0...3).contains(extendReasonCode) else {
            throw AppStoreServerAPIError(.invalidRequest, "extendReasonCode must be 0 to 3, not \(extendReasonCode)")
        }
    }

    var body: JSONValue {
        [
            "extendByDays": .integer(Int64(extendByDays)),
            "extendReasonCode": .integer(Int64(extendReasonCode)),
            "requestIdentifier": .string(requestIdentifier.uuidString.lowercased()),
        ]
    }
}
