@testable import API
import Foundation
import LedgerDomain
import Testing

@Suite("Key cache")
struct KeyCacheTests {
    @Test("a key is remembered for its lifetime only, so a revocation takes effect within it")
    func expires() {
        let cache = KeyCache(lifetime: 0.2)
        let principal = KeyPrincipal(kind: .project, id: "p")
        #expect(cache.lookup("d") == nil)
        cache.store("d", principal)
        #expect(cache.lookup("d") == principal)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(cache.lookup("d") == nil)
        let disabled = KeyCache(lifetime: 0)
        disabled.store("d", principal)
        #expect(disabled.lookup("d") == nil)
    }
}
