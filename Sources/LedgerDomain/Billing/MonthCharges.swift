/// What one project of a pool owes for a month, as `usage.month_closed` records it.
public struct ProjectCharge: Sendable, Hashable, Codable {
    public var projectID: String
    /// Counted units (U4), and how many of them the free limit covered.
    public var units: Quantity
    public var freeUnits: Quantity
    public var billedUnits: Quantity
    public var unitsAmount: Millicredits
    /// The project's peak storage, and its share of the pool's bytes above the allowance.
    public var storageBytes: Quantity
    public var billedStorageBytes: Quantity
    public var storageAmount: Millicredits
    /// `unitsAmount + storageAmount`, positive: what the project consumed.
    public var amount: Millicredits

    enum CodingKeys: String, CodingKey {
        case projectID = "project_id", units, freeUnits = "free_units", billedUnits = "billed_units"
        case unitsAmount = "units_amount", storageBytes = "storage_bytes", billedStorageBytes = "billed_storage_bytes"
        case storageAmount = "storage_amount", amount
    }

    public init(projectID: String, units: Quantity, freeUnits: Quantity, billedUnits: Quantity, unitsAmount: Millicredits,
                storageBytes: Quantity, billedStorageBytes: Quantity, storageAmount: Millicredits, amount: Millicredits) {
        self.projectID = projectID
        self.units = units
        self.freeUnits = freeUnits
        self.billedUnits = billedUnits
        self.unitsAmount = unitsAmount
        self.storageBytes = storageBytes
        self.billedStorageBytes = billedStorageBytes
        self.storageAmount = storageAmount
        self.amount = amount
    }
}

/// Computes a pool's month: the storage above the allowance, its amount, and each
/// project's share of both (U3, U6), from what the projector folded.
public enum MonthCharges {
    /// What the fold accumulated for one project of the pool in the month.
    public struct ProjectUsage: Sendable, Hashable {
        public var units: Quantity
        public var freeUnits: Quantity
        public var billedUnits: Quantity
        public var unitsAmount: Millicredits
        public var storagePeak: Quantity

        public init(units: Quantity, freeUnits: Quantity, billedUnits: Quantity, unitsAmount: Millicredits, storagePeak: Quantity) {
            self.units = units
            self.freeUnits = freeUnits
            self.billedUnits = billedUnits
            self.unitsAmount = unitsAmount
            self.storagePeak = storagePeak
        }
    }

    public static func compute(projects: [String: ProjectUsage], allowanceBytes: Int64,
                               storagePrice: Millicredits) throws(MoneyError) -> [ProjectCharge] {
        var poolStorage = Quantity.zero
        for usage in projects.values { poolStorage = try poolStorage + usage.storagePeak }
        let billedBytes = Quantity(max(0, poolStorage.value - Int128(max(0, allowanceBytes))))
        guard let poolAmount = StoragePricing.amount(billedBytes: billedBytes, pricePerGiBMonth: storagePrice) else {
            throw MoneyError(code: .overflow, message: "storage amount overflows")
        }
        let weights = projects.mapValues { max(0, $0.storagePeak.value) }
        let bytesShares = ProportionalSplit.split(billedBytes.value, weights: weights)
        let amountShares = ProportionalSplit.split(max(0, poolAmount.value), weights: weights)
        return try projects.keys.sorted().map { (id) throws(MoneyError) -> ProjectCharge in
            let u = projects[id]!
            let storageAmount = Millicredits(amountShares[id] ?? 0)
            return ProjectCharge(projectID: id, units: u.units, freeUnits: u.freeUnits, billedUnits: u.billedUnits,
                                 unitsAmount: u.unitsAmount, storageBytes: u.storagePeak,
                                 billedStorageBytes: Quantity(bytesShares[id] ?? 0), storageAmount: storageAmount,
                                 amount: try u.unitsAmount + storageAmount)
        }
    }
}
