/// Where a value sits inside a document: the keys and indices leading to it from the top.
///
/// Rendered for people as `data.items[3].amount`; the top level renders as an empty path.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(_ components: [Component] = []) { self.components = components }

    public var isEmpty: Bool { components.isEmpty }

    public var description: String {
        var out = ""
        for component in components {
            switch component {
            case .key(let key):
                if !out.isEmpty { out += "." }
                out += key
            case .index(let i):
                out += "[\(i)]"
            }
        }
        return out
    }

    /// The path as a message prefix: "data.amount" or "top level".
    var label: String { isEmpty ? "top level" : description }

    func prepending(_ component: Component) -> JSONPath {
        JSONPath([component] + components)
    }
}
