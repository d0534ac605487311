import EventStore
import LedgerDomain

/// Records the one answer to a refund request (`appstore.consumption_answered`), judged
/// by `ConsumptionDecider` on the subscription's stream read from the log itself: an answer
/// appended a moment ago by another projector, and not folded yet, is found, and the
/// idempotency key `appstore-consumption:<uuid>` stops a race the read could not see.
public struct AppStoreConsumptionAnswerAct: LedgerAct {
    public var request: AppStoreConsumptionRequested
    public var answer: ConsumptionDecider.Answer

    public init(_ answer: ConsumptionDecider.Answer, to request: AppStoreConsumptionRequested) {
        self.request = request
        self.answer = answer
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        let stream = try reads.stream(request.stream).map { (type: $0.type, data: try $0.data()) }
        let (found, answered) = try ConsumptionDecider.find(request.notificationUUID, in: stream)
        guard let found else {
            throw Refusal(.notFound, "the log holds no refund request \(request.notificationUUID) on \(request.stream)")
        }
        if answered { throw AlreadyRecorded("refund request \(request.notificationUUID) was answered before") }
        return try ConsumptionDecider.answer(answer, to: found, answered: answered, now: reads.now())
    }

    /// Another answer took the key first: the request is answered, once.
    public func keyTaken(_ key: String?, by decision: Decision, _ reads: ActReads) throws -> RaceVerdict? {
        .alreadyRecorded(AlreadyRecorded("refund request \(request.notificationUUID) was answered by another append"))
    }

    /// Whether the log holds an answer to `request` already: asked before anything is sent
    /// to Apple, through the key's index alone.
    public static func isAnswered(_ request: AppStoreConsumptionRequested, log: LogReader) throws -> Bool {
        try !log.recordedKeys([request.answerKey]).isEmpty
    }
}
