/// The web checkout projection's users, for the console's search and lists: the users its
/// facts name (`facts_user_idx`, whose rows all name one).
extension WebCheckoutReadModel {
    public var users: DirectoryUserTable {
        DirectoryUserTable(connections: connections, table: "proj_web.facts", indexed: "user_id IS NOT NULL")
    }
}
