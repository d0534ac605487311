/// Where a value sits inside a document: the keys and indices leading to it from the top.
///
/// Rendered for people as `data.items[3].amount`; the top level renders as an empty path.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step: a member of an object or an element of an array.
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The steps from the top level, outermost first.
    public var components: [Component]

    public init(_ components: [Component] = []) { self.components = components }

    /// Whether this is the top level itself.
    public var isEmpty: Bool { components.isEmpty }

    /// `data.items[3].amount`; keys are written as they are, without quoting.
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
