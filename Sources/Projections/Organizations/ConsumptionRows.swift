import EventStore
import LedgerDomain
import LedgerJSON
import Postgres
import ProjectionEngine

/// One batch's refund requests and answers for `appstore_consumption`: a request makes its
/// row; its answer fills the row's answer columns, in the batch when the request is in it,
/// else by an update of the row an earlier batch wrote. The first answer stays (the decider
/// allows one).
struct ConsumptionRows {
    private var rows: [String: [any PostgresBindable]] = [:]
    private var order = OrderedKeys<String>()
    private var answers = RowBuffer(columns: 7)

    /// The answer columns, from `outcome` on.
    private static func answerColumns(_ e: AppStoreConsumptionAnswered, _ event: RecordedEvent) -> [any PostgresBindable] {
        let information = e.information.map { (try? JSONValueEncoder().encode($0))?.compactText() ?? "null" }
        return [e.outcome.rawValue, e.reason, e.detail, information, event.occurredAt.microseconds, event.position]
    }

    mutating func requested(_ e: AppStoreConsumptionRequested, at position: Int64) {
        guard rows[e.notificationUUID] == nil else { return }
        order.insert(e.notificationUUID)
        let none = PostgresNull()
        rows[e.notificationUUID] = [e.notificationUUID, e.originalTransactionID, e.orgID, e.transactionID, e.productID, e.bundleID,
                                    e.environment, e.signedDate.microseconds, e.respondBy.microseconds, position,
                                    none, none, none, none, none, none]
    }

    mutating func answered(_ e: AppStoreConsumptionAnswered, at event: RecordedEvent) {
        if var row = rows[e.notificationUUID] {
            guard row[10].postgresText == nil else { return }
            row.replaceSubrange(10..., with: Self.answerColumns(e, event))
            rows[e.notificationUUID] = row
        } else {
            answers.append([e.notificationUUID] + Self.answerColumns(e, event))
        }
    }

    func write(to db: ProjectionContext) {
        var inserted = RowBuffer(columns: 16)
        for id in order.keys { inserted.append(rows[id]!) }
        db.enqueue("""
            INSERT INTO appstore_consumption (notification_uuid, original_transaction_id, org_id, transaction_id, product_id,
                bundle_id, environment, signed_us, respond_by_us, position, outcome, reason, detail, information, answered_us,
                answered_position)
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[],
                $9::bigint[], $10::bigint[], $11::text[], $12::text[], $13::text[], $14::text[], $15::bigint[], $16::bigint[])
            ON CONFLICT DO NOTHING
            """, rows: inserted)
        db.enqueue("""
            UPDATE appstore_consumption c SET outcome = u.outcome, reason = u.reason, detail = u.detail,
                information = u.information, answered_us = u.answered_us, answered_position = u.answered_position
            FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[])
                AS u (notification_uuid, outcome, reason, detail, information, answered_us, answered_position)
            WHERE c.notification_uuid = u.notification_uuid AND c.outcome IS NULL
            """, rows: answers)
    }
}
