import LedgerDomain

/// An app of the IAP catalog, on a new stream: `.noStream` makes a second create fail,
/// even a concurrent one.
public struct AppCreateAct: LedgerAct {
    public var id: String
    public var name: String
    public var bundleID: String

    public init(id: String, name: String, bundleID: String) {
        self.id = id
        self.name = name
        self.bundleID = bundleID
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        try CatalogDecider.createApp(id: id, name: name, bundleID: bundleID)
    }

    public func lostRace(on stream: String, actualVersion: Int64?, _ reads: ActReads) throws -> Refusal? {
        stream == CatalogDecider.stream(id) && (actualVersion ?? 0) > 0 ? Refusal(.alreadyExists, "app \(id) already exists") : nil
    }
}
