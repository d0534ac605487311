/// How the SDK presents checkout (the seed's `sheet_type`).
public enum SheetType: String, Codable, Sendable, Hashable, CaseIterable {
    case webview, native
}

/// An app's checkout configuration: the seed's `CheckoutConfig`.
public struct CheckoutConfig: Codable, Sendable, Hashable {
    /// One jurisdiction's override (`JurisdictionConfig`).
    public struct Jurisdiction: Codable, Sendable, Hashable {
        public var sheetType: SheetType
        public var isEnabled: Bool
        enum CodingKeys: String, CodingKey { case sheetType = "sheet_type", isEnabled = "is_enabled" }
        public init(sheetType: SheetType, isEnabled: Bool) {
            self.sheetType = sheetType
            self.isEnabled = isEnabled
        }
    }

    /// The jurisdictions the seed names.
    public enum Region: String, Codable, Sendable, CaseIterable { case us, eu, other }

    public var sheetType: SheetType
    public var isEnabled: Bool
    /// Overrides by region; a region without one inherits the defaults above.
    public var jurisdictions: [Region: Jurisdiction]
    public var appleMerchantID: String?

    enum CodingKeys: String, CodingKey {
        case jurisdictions
        case sheetType = "sheet_type", isEnabled = "is_enabled", appleMerchantID = "apple_merchant_id"
    }

    public init(sheetType: SheetType = .webview, isEnabled: Bool = false, jurisdictions: [Region: Jurisdiction] = [:],
                appleMerchantID: String? = nil) {
        self.sheetType = sheetType
        self.isEnabled = isEnabled
        self.jurisdictions = jurisdictions
        self.appleMerchantID = appleMerchantID
    }

    /// Before any configuration: web checkout off, presented in a web view.
    public static let unconfigured = CheckoutConfig()

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sheetType = try c.decode(SheetType.self, forKey: .sheetType)
        isEnabled = try c.decode(Bool.self, forKey: .isEnabled)
        appleMerchantID = try c.decodeIfPresent(String.self, forKey: .appleMerchantID)
        let raw = try c.decodeIfPresent([String: Jurisdiction].self, forKey: .jurisdictions) ?? [:]
        var byRegion: [Region: Jurisdiction] = [:]
        for (key, value) in raw {
            guard let region = Region(rawValue: key) else {
                throw DecodingError.dataCorruptedError(forKey: .jurisdictions, in: c, debugDescription: "unknown jurisdiction \(key)")
            }
            byRegion[region] = value
        }
        jurisdictions = byRegion
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sheetType, forKey: .sheetType)
        try c.encode(isEnabled, forKey: .isEnabled)
        try c.encode(appleMerchantID, forKey: .appleMerchantID)
        try c.encode(Dictionary(uniqueKeysWithValues: jurisdictions.map { ($0.key.rawValue, $0.value) }), forKey: .jurisdictions)
    }

    /// Every region's effective configuration: its override, else the defaults.
    public var resolvedJurisdictions: [Region: Jurisdiction] {
        Dictionary(uniqueKeysWithValues: Region.allCases.map {
            ($0, jurisdictions[$0] ?? Jurisdiction(sheetType: sheetType, isEnabled: isEnabled))
        })
    }
}
