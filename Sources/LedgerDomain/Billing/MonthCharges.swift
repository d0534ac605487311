/// What one project of a pool owes for a month, as `usage.month_closed` records it.
public struct ProjectCharge: Sendable, Hashable, Codable {
    public var projectID: String
    /// Counted units (U4), and how many of them the free limit covered.
    public var units: Int64
    public var freeUnits: Int64
    public var billedUnits: Int64
    public var unitsAmount: Millicredits
    /// The project's peak storage, and its share of the pool's bytes above the allowance.
    public var storageBytes: Int64
    public var billedStorageBytes: Int64
    public var storageAmount: Millicredits
    /// `unitsAmount + storageAmount`, positive: what the project consumed.
    public var amount: Millicredits

    enum CodingKeys: String, CodingKey {
        case projectID = "project_id", units, freeUnits = "free_units", billedUnits = "billed_units"
        case unitsAmount = "units_amount", storageBytes = "storage_bytes", billedStorageBytes = "billed_storage_bytes"
        case storageAmount = "storage_amount", amount
    }

    public init(projectID: String, units: Int64, freeUnits: Int64, billedUnits: Int64, unitsAmount: Millicredits,
                storageBytes: Int64, billedStorageBytes: Int64, storageAmount: Millicredits, amount: Millicredits) {
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
        public var units: Int64
        public var freeUnits: Int64
        public var billedUnits: Int64
        public var unitsAmount: Millicredits
        public var storagePeak: Int64

        public init(units: Int64, freeUnits: Int64, billedUnits: Int64, unitsAmount: Millicredits, storagePeak: Int64) {
            self.units = units
            self.freeUnits = freeUnits
            self.billedUnits = billedUnits
            self.unitsAmount = unitsAmount
            self.storagePeak = storagePeak
        }
    }

    public static func compute(projects: [String: ProjectUsage], allowanceBytes: Int64,
                               storagePrice: Millicredits) throws(MoneyError) -> [ProjectCharge] {
        var poolStorage: Int64 = 0
        for usage in projects.values {
            let (s, o) = poolStorage.addingReportingOverflow(usage.storagePeak)
            guard !o else { throw MoneyError(code: .overflow, message: "pool storage overflows") }
            poolStorage = s
        }
        let billedBytes = max(0, poolStorage - max(0, allowanceBytes))
        guard let poolAmount = StoragePricing.amount(billedBytes: billedBytes, pricePerGiBMonth: storagePrice) else {
            throw MoneyError(code: .overflow, message: "storage amount overflows")
        }
        let weights = projects.mapValues(\.storagePeak)
        let bytesShares = ProportionalSplit.split(billedBytes, weights: weights)
        let amountShares = ProportionalSplit.split(max(0, poolAmount.value), weights: weights)
        return try projects.keys.sorted().map { (id) throws(MoneyError) -> ProjectCharge in
            let u = projects[id]!
            let storageAmount = Millicredits(amountShares[id] ?? 0)
            return ProjectCharge(projectID: id, units: u.units, freeUnits: u.freeUnits, billedUnits: u.billedUnits,
                                 unitsAmount: u.unitsAmount, storageBytes: u.storagePeak,
                                 billedStorageBytes: bytesShares[id] ?? 0, storageAmount: storageAmount,
                                 amount: try u.unitsAmount + storageAmount)
        }
    }
}
