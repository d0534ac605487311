import HTTP
import LedgerDomain

extension Problem {
    /// A decider's refusal as the HTTP problem that says it: the same code, with the
    /// status its meaning has on the wire. Nothing was appended.
    init(_ refusal: Refusal) {
        self.init(status: Self.status(of: refusal.code), code: refusal.code.rawValue, detail: refusal.message,
                  errors: refusal.errors.isEmpty ? nil : refusal.errors)
    }

    static func status(of code: Refusal.Code) -> Int {
        switch code {
        case .notFound: return 404
        case .forbidden, .educationNotEligible: return 403
        case .appStoreAccountMismatch, .appStorePlanConflict, .billedByReseller, .alreadyExists, .alreadySettled,
             .alreadyRevoked, .monthClosed, .usageIDConflict:
            return 409
        default: return 422
        }
    }
}
