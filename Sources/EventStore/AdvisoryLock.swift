/// Advisory lock keys (the two-integer form), shared by every process of a deployment.
/// The namespace is "LEDG" in ASCII, so that the keys do not collide with another
/// application's locks in the same database.
public enum AdvisoryLock {
    public static let namespace: Int32 = 0x4C45_4447
    /// Held, per transaction, by whoever appends to the log (checked by the log's trigger).
    public static let append: Int32 = 1
    /// Held, per session, by the one active projector.
    public static let projector: Int32 = 2
    /// Held while migrations run.
    public static let migrate: Int32 = 3
    /// Held, per transaction, by a projection batch and by replay's final swap.
    public static let projectionSwap: Int32 = 4
    /// Held, per session, by the one rebuild that may run at a time.
    public static let rebuild: Int32 = 5
    /// Held, per session, by the one App Store notification history sync of an app and
    /// environment running at a time (the projector's job, or an operator's run). The
    /// second key of the pair is the app's (`hashtext` of its bundle id and environment),
    /// so this one is the first of the pair and the namespace is left out.
    public static let appStoreSync: Int32 = 6
    /// Held, per session, by the one Stripe events sync of an app running at a time (the
    /// projector's job, or an operator's reconcile); the second key is `hashtext` of the
    /// app's id.
    public static let stripeSync: Int32 = 7
}
