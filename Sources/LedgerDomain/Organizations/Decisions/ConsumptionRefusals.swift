extension Refusal.Code {
    /// A refund request answered before: each is answered once (`appstore.consumption_answered`).
    public static let consumptionAlreadyAnswered = Refusal.Code("consumption_already_answered")
    /// An answer the rules do not allow: fields outside Apple's ranges, sent without
    /// consent, expired before its time, declined for a reason that does not hold.
    public static let consumptionAnswerInvalid = Refusal.Code("consumption_answer_invalid")
}
