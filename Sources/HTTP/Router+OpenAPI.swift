import LedgerJSON

extension Router {
    /// The OpenAPI 3.1 `paths` object: pattern → lower-case method → the operation given
    /// when the route was added. Routes added without an operation are left out, so that
    /// internal endpoints can stay undocumented.
    public func openAPIPaths() -> JSONValue {
        var paths: [String: JSONValue] = [:]
        for route in routes {
            guard let operation = route.operation else { continue }
            var item = paths[route.pattern]?.objectValue ?? [:]
            item[route.method.lowercased()] = operation
            paths[route.pattern] = .object(item)
        }
        return .object(paths)
    }
}
