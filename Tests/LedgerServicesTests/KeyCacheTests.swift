import LedgerDomain
@testable import LedgerServices
import Synchronization
import Testing
import TestSupport

@Suite("Key cache", .bounded)
struct KeyCacheTests {
    @Test("a key is remembered for its lifetime only, so a revocation takes effect within it")
    func expires() {
        let now = Mutex(Timestamp(microseconds: 1_000_000_000_000)!)
        let cache = KeyCache(lifetime: 2) { now.withLock { $0 } }
        let principal = KeyPrincipal(kind: .project, id: "p")
        #expect(cache.lookup("d") == nil)
        cache.store("d", principal)
        #expect(cache.lookup("d") == principal)
        now.withLock { $0 = Timestamp(microseconds: $0.microseconds + 1_900_000)! }
        #expect(cache.lookup("d") == principal)
        now.withLock { $0 = Timestamp(microseconds: $0.microseconds + 200_000)! }
        #expect(cache.lookup("d") == nil)
        let disabled = KeyCache(lifetime: 0)
        disabled.store("d", principal)
        #expect(disabled.lookup("d") == nil)
    }
}
