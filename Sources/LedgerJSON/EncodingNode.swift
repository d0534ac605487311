/// What an encoder has written so far. Containers hand out nested containers and super
/// encoders before those are filled, so the tree holds references until `resolve()`.
enum EncodingNode {
    case value(JSONValue)
    case object(ObjectBox)
    case array(ArrayBox)
    /// A super encoder, filled in after it was handed out.
    case deferred(ValueEncoder)

    final class ObjectBox {
        var members: [String: EncodingNode] = [:]
    }

    final class ArrayBox {
        var elements: [EncodingNode] = []
    }

    func resolve() -> JSONValue {
        switch self {
        case .value(let v):
            return v
        case .object(let box):
            return .object(box.members.mapValues { $0.resolve() })
        case .array(let box):
            return .array(box.elements.map { $0.resolve() })
        case .deferred(let encoder):
            // An encoder nothing was written to stands for an empty object, as with
            // Foundation's JSONEncoder.
            return encoder.node?.resolve() ?? .object([:])
        }
    }
}
