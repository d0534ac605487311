/// The parameters of List all events as the stand-in reads them, refused as Stripe refuses
/// them: an unknown parameter, an integer that is not one, a `limit` outside 1–100, more
/// than 20 `types[]`, `type` with `types[]`, `starting_after` with `ending_before`.
struct StripeEventListQuery {
    struct Refusal: Error {
        var code: String
        var param: String?
        var message: String
    }

    var limit = 10
    var startingAfter: String?
    var endingBefore: String?
    var createdAtLeast: Int64?
    var createdAfter: Int64?
    var createdAtMost: Int64?
    var createdBefore: Int64?
    var createdExactly: Int64?
    /// `type`, which may end in `*` (every type under it).
    var type: String?
    var types: [String] = []

    init(_ items: [(name: String, value: String)]) throws(Refusal) {
        func integer(_ name: String, _ value: String) throws(Refusal) -> Int64 {
            guard let number = Int64(value) else {
                throw Refusal(code: "parameter_invalid_integer", param: name, message: "Invalid integer: \(value)")
            }
            return number
        }
        var sawLimit = false
        for (name, value) in items {
            switch name {
            case "limit":
                limit = Int(try integer(name, value))
                sawLimit = true
            case "starting_after": startingAfter = value
            case "ending_before": endingBefore = value
            case "created": createdExactly = try integer(name, value)
            case "created[gte]": createdAtLeast = try integer(name, value)
            case "created[gt]": createdAfter = try integer(name, value)
            case "created[lte]": createdAtMost = try integer(name, value)
            case "created[lt]": createdBefore = try integer(name, value)
            case "type": type = value
            case "types[]": types.append(value)
            default:
                throw Refusal(code: "parameter_unknown", param: name, message: "Received unknown parameter: \(name)")
            }
        }
        guard !sawLimit || (1...100).contains(limit) else {
            throw Refusal(code: "parameter_invalid_integer", param: "limit", message: "This value must be between 1 and 100.")
        }
        guard startingAfter == nil || endingBefore == nil else {
            throw Refusal(code: "parameter_invalid", param: nil,
                          message: "You may only specify one of these parameters: ending_before, starting_after.")
        }
        guard type == nil || types.isEmpty else {
            throw Refusal(code: "parameter_invalid", param: "types", message: "You may only specify one of these parameters: type, types.")
        }
        guard types.count <= 20 else {
            throw Refusal(code: "parameter_invalid", param: "types", message: "You may specify at most 20 types.")
        }
    }

    func matches(_ event: StripeStandInEvent) -> Bool {
        let t = event.created
        if let createdExactly, t != createdExactly { return false }
        if let createdAtLeast, t < createdAtLeast { return false }
        if let createdAfter, t <= createdAfter { return false }
        if let createdAtMost, t > createdAtMost { return false }
        if let createdBefore, t >= createdBefore { return false }
        if !types.isEmpty && !types.contains(event.type) { return false }
        if let type {
            if type.hasSuffix("*") {
                guard event.type.hasPrefix(type.dropLast()) else { return false }
            } else if event.type != type {
                return false
            }
        }
        return true
    }
}
