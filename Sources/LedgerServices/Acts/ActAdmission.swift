/// How an act's append is admitted while the projections are behind (`AdmissionControl`,
/// docs/architecture.md "Admission").
public enum ActAdmission: Sendable, Equatable {
    /// Admitted whatever the projections' lag, and counted apart.
    case always
    /// Admitted while `projection` (the one its writer reads its write back from) is less
    /// than the bound behind; else parked, and refused if it stays behind.
    case bounded(projection: String, events: Int)
}
