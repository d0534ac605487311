import Foundation
import Postgres
import Testing
import TestSupport

/// The log is read with binary results (`EventStore.read`): each binary accessor must give
/// what the same value's text gives, over generated values, and refuse a text column.
@Suite("Binary results", .bounded)
struct BinaryResultTests {
    @Test("int8, uuid, bytea, timestamptz and text read in binary agree with their text, NULLs included")
    func binaryAgreesWithText() throws {
        let connection = try PostgresConnection(conninfo: try TestPostgres.requireURL())
        // The timestamps are built from whole days and microseconds, exact only in UTC
        // (an interval multiplied by a large factor goes through a double).
        try connection.query("SET TimeZone TO 'UTC'")
        try Property.check("postgres.binary", count: 150) { (rng, seed) throws in
            let n = Int64.random(in: .min ... .max, using: &rng)
            // 1970-01-01 to 9999-12-31, the event times' range, edges included.
            let micros = rng.pick([0, 946_684_800_000_000, 253_402_300_799_999_999,
                                   Int64.random(in: 0...253_402_300_799_999_999, using: &rng)])
            let bytes = (0..<rng.int(0...40)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let text = rng.string(from: Array("aZ09 -\"\\é€😀"), length: rng.int(0...20))
            let uuid = UUID()
            let sql = """
                SELECT $1::int8, $2::uuid, decode($3, 'hex'), (timestamptz 'epoch' + ($4::int8 / 86400000000) * interval '1 day' + ($4::int8 % 86400000000) * interval '1 microsecond'), $5::text, NULL::int8, NULL::text,
                       (extract(epoch FROM (timestamptz 'epoch' + ($4::int8 / 86400000000) * interval '1 day' + ($4::int8 % 86400000000) * interval '1 microsecond')) * 1000000)::bigint
                """
            let parameters: [any PostgresBindable] = [n, uuid.uuidString, bytes.map { String(format: "%02x", $0) }.joined(), micros, text]
            let binary = try connection.query(sql, parameters, format: .binary)[0]
            let plain = try connection.query(sql, parameters)[0]
            #expect(try binary.requireBinaryInt64(0) == n, "seed \(seed.hex)")
            #expect(UUID(uuid: try binary.requireBinaryUUID(1)) == uuid, "seed \(seed.hex)")
            #expect(try binary.requireBinaryBytes(2) == bytes, "seed \(seed.hex)")
            #expect(try binary.requireBinaryBytes(2) == plain.bytes(2), "seed \(seed.hex)")
            #expect(try binary.requireBinaryTimestampMicroseconds(3) == micros, "seed \(seed.hex)")
            #expect(try binary.requireBinaryTimestampMicroseconds(3) == plain.int64(7), "seed \(seed.hex)")
            #expect(sameBytes(try binary.requireBinaryString(4), text), "seed \(seed.hex)")
            // Reusing a candidate: the value whatever the candidate, in the candidate's own
            // storage when its bytes are the same (strings past 15 bytes have storage to share).
            let candidate: String? = rng.pick([text, text + "x", String(text.dropLast()), String(text.reversed()), nil])
            let reused = try binary.requireBinaryString(4, reusing: candidate)
            #expect(sameBytes(reused, text), "seed \(seed.hex)")
            if let candidate, sameBytes(candidate, text), text.utf8.count > 15 {
                #expect(storage(reused) == storage(candidate), "seed \(seed.hex)")
            } else if let candidate, text.utf8.count > 15 {
                #expect(storage(reused) != storage(candidate), "seed \(seed.hex)")
            }
            var fixed: [UInt8]?
            if bytes.count == 16 {
                try binary.withRequiredBinaryBytes(2, count: 16) { fixed = Array($0) }
                #expect(fixed == bytes, "seed \(seed.hex)")
            } else {
                #expect(throws: PostgresError.self) { try binary.withRequiredBinaryBytes(2, count: 16) { _ in } }
            }
            #expect(try binary.binaryInt64(5) == nil)
            #expect(try binary.binaryString(6) == nil)
            #expect(throws: PostgresError.self) { try binary.requireBinaryInt64(5) }
        }
    }

    /// Where a string's UTF-8 lives: the same address for two strings is one storage shared.
    private func storage(_ s: String) -> UnsafeRawPointer? {
        s.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    @Test("a text result read as binary, or a value of the wrong width, is an error rather than a number")
    func mismatchesAreRefused() throws {
        let connection = try PostgresConnection(conninfo: try TestPostgres.requireURL())
        let text = try connection.query("SELECT $1::int8", [Int64(5)])[0]
        #expect(throws: PostgresError.self) { try text.requireBinaryInt64(0) }
        let narrow = try connection.query("SELECT $1::int4", [Int64(5)], format: .binary)[0]
        #expect(throws: PostgresError.self) { try narrow.requireBinaryInt64(0) }
        #expect(throws: PostgresError.self) { try narrow.requireBinaryUUID(0) }
    }
}
