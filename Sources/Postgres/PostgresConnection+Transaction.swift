extension PostgresConnection {
    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(isolation: String? = nil, _ body: (PostgresConnection) throws -> T) throws -> T {
        try query(isolation.map { "BEGIN ISOLATION LEVEL \($0)" } ?? "BEGIN")
        do {
            let value = try body(self)
            try query("COMMIT")
            return value
        } catch {
            if isOpen { _ = try? query("ROLLBACK") }
            throw error
        }
    }
}
