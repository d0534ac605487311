/// A user of an app (`app_id`, `user_id`) and the position of the latest event of theirs
/// that a projection holds.
public struct DirectoryUser: Sendable, Hashable {
    public var appID: String
    public var userID: String
    public var lastPosition: Int64

    public init(appID: String, userID: String, lastPosition: Int64) {
        self.appID = appID
        self.userID = userID
        self.lastPosition = lastPosition
    }
}
