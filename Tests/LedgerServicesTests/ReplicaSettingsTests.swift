@testable import LedgerServices
import Testing
import TestSupport

@Suite("Read replica settings", .bounded)
struct ReplicaSettingsTests {
    @Test("a replica's address never shows its credentials, and its URL gets bounded timeouts unless it sets its own")
    func urls() {
        #expect(ReplicaSet.address(of: "postgresql://ledger:s3cret@db2.internal:6432/ledger") == "db2.internal:6432/ledger")
        #expect(!ReplicaSet.address(of: "postgresql://u:pw@h/d").contains("pw"))
        let bounded = ReplicaSet.bounded("postgresql://ledger@db2:5432/ledger?sslmode=require")
        #expect(bounded.contains("sslmode=require") && bounded.contains("connect_timeout=2") && bounded.contains("tcp_user_timeout=5000"))
        #expect(ReplicaSet.bounded("postgresql://ledger@db2/ledger?connect_timeout=9").contains("connect_timeout=9"))
        #expect(!ReplicaSet.bounded("postgresql://ledger@db2/ledger?connect_timeout=9").contains("connect_timeout=2"))
    }
}
