/// What an encoder has written so far. Containers hand out nested containers and super
/// encoders before those are filled, so the tree holds references until it is resolved
/// (`resolve()`) or written out as text (`writeCompact`).
enum EncodingNode {
    case value(JSONValue)
    case object(ObjectBox)
    case array(ArrayBox)
    /// A super encoder, filled in after it was handed out.
    case deferred(ValueEncoder)

    /// An object's members in the order first written; writing a key again replaces its
    /// value, as a dictionary would. A type has a handful of keys, so a linear search costs
    /// less than hashing each one.
    final class ObjectBox {
        private(set) var keys: [String] = []
        private(set) var nodes: [EncodingNode] = []

        subscript(key: String) -> EncodingNode? {
            get { keys.firstIndex(of: key).map { nodes[$0] } }
            set {
                guard let newValue else {
                    if let i = keys.firstIndex(of: key) { keys.remove(at: i); nodes.remove(at: i) }
                    return
                }
                if let i = keys.firstIndex(of: key) { nodes[i] = newValue } else { keys.append(key); nodes.append(newValue) }
            }
        }
    }

    final class ArrayBox {
        var elements: [EncodingNode] = []
    }

    func resolve() -> JSONValue {
        switch self {
        case .value(let v):
            return v
        case .object(let box):
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(box.keys.count)
            for (key, node) in zip(box.keys, box.nodes) { members[key] = node.resolve() }
            return .object(members)
        case .array(let box):
            return .array(box.elements.map { $0.resolve() })
        case .deferred(let encoder):
            // An encoder nothing was written to stands for an empty object, as with
            // Foundation's JSONEncoder.
            return encoder.node?.resolve() ?? .object([:])
        }
    }

    /// Writes the compact text `resolve().compactBytes(sortedKeys:)` would, without
    /// building the value first: the HTTP responses' path.
    func writeCompact(sortedKeys: Bool, to out: inout ByteWriter) {
        switch self {
        case .value(let v):
            TextWriter(keyOrder: sortedKeys ? .sorted : .unsorted, indent: nil).write(v, to: &out)
        case .object(let box):
            out.append(UInt8(ascii: "{"))
            var order = Array(box.keys.indices)
            if sortedKeys { order.sort { box.keys[$0].utf8.lexicographicallyPrecedes(box.keys[$1].utf8) } }
            for (n, i) in order.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                JSONBytes.appendQuoted(box.keys[i], to: &out)
                out.append(UInt8(ascii: ":"))
                box.nodes[i].writeCompact(sortedKeys: sortedKeys, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let box):
            out.append(UInt8(ascii: "["))
            for (n, element) in box.elements.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                element.writeCompact(sortedKeys: sortedKeys, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .deferred(let encoder):
            if let node = encoder.node { node.writeCompact(sortedKeys: sortedKeys, to: &out) } else {
                out.append(UInt8(ascii: "{"))
                out.append(UInt8(ascii: "}"))
            }
        }
    }
}
