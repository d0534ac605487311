import EventStore
import LedgerDomain

extension BillingBatch {
    /// U4, as `UnitPricing` decides it: counted units take what is left of the pool's free
    /// limit, in log order; the rest is billed at the unit price in force (in log order) now.
    func usageRecorded(_ e: UsageRecorded) throws {
        let pool = try poolOf(project: e.projectID, at: eventTime).description
        let month = UTCMonth(containing: eventTime).description
        var state = try poolMonth(pool, month)
        guard state.status == .open else {
            // Recorded after the month started closing: kept, never billed (docs/billing.md).
            lateUsage.append([position, e.usageID, e.projectID, pool, month, e.meter.rawValue, e.quantity])
            return
        }
        let key = ProjectMonthKey(project: e.projectID, month: month, pool: pool)
        switch e.meter {
        case .apiRequests, .streamEvents, .webhookDeliveries:
            let priced = try UnitPricing.price(quantity: e.quantity, freeUsed: state.freeUsed, unitPrice: Millicredits(try prices().unit))
            state.freeUsed += priced.free
            setPoolMonth(pool, month, state)
            projectMonths[key, default: ProjectMonthDelta()].add(counted: e.meter, e.quantity, priced: priced)
        case .storageBytes:
            projectMonths[key, default: ProjectMonthDelta()].measure(storage: e.quantity)
        case .bytesServed, .bytesReceived:
            projectMonths[key, default: ProjectMonthDelta()].counters[e.meter, default: 0] += Int128(e.quantity)
        }
    }

    /// Freezes the month: what it owes is what was folded before this position, priced with
    /// the storage price and allowance in force now, whatever is appended before it closes.
    func monthClosing(_ e: MonthClosing) throws {
        ensurePool(e.pool)
        let storagePrice = try prices().storage
        let allowance = try allowance(of: e.pool.description)
        var state = try poolMonth(e.pool.description, e.month.description)
        state.status = .closing
        state.closingPosition = position
        state.closingAllowance = allowance
        state.closingStoragePrice = storagePrice
        setPoolMonth(e.pool.description, e.month.description, state)
    }

    /// The recorded charges post as `usage_charge` entries, one per project that owes.
    func monthClosed(_ e: MonthClosed) throws {
        var state = try poolMonth(e.pool.description, e.month.description)
        state.status = .closed
        state.closedPosition = position
        setPoolMonth(e.pool.description, e.month.description, state)
        var index: Int32 = 0
        for charge in e.charges {
            var entryID: String?
            if charge.amount.value != 0 {
                post(Entry(index: index, kind: "usage_charge", source: nil, amount: -charge.amount.value,
                           projectID: charge.projectID, pool: e.pool, month: e.month.description, holdID: nil,
                           corrects: nil, description: "usage of \(e.month)"),
                     to: Self.accounts(project: charge.projectID, pool: e.pool), balance: .usagePosted)
                entryID = JournalEntryID(position: position, index: index).description
                index += 1
            }
            charges.append([e.pool.description, e.month.description, charge.projectID, charge.units.value, charge.freeUnits.value,
                            charge.billedUnits.value, charge.unitsAmount.value, charge.storageBytes.value,
                            charge.billedStorageBytes.value, charge.storageAmount.value, charge.amount.value, entryID, position])
        }
    }
}
