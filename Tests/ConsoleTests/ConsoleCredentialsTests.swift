import API
import Crypto
import LedgerDomain
import LedgerServices
import Testing
import TestSupport

/// The console's password hashing (scrypt through OpenSSL) and signed session cookies.
@Suite("Console credentials and sessions", .bounded)
struct ConsoleCredentialsTests {
    @Test("scrypt gives RFC 7914's test vectors (§12)")
    func rfcVectors() throws {
        let empty = try #require(Scrypt.derive(password: [], salt: [], parameters: .init(logN: 4, r: 1, p: 1), length: 64))
        #expect(Hex.encode(empty) == "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906")
        let sodium = try #require(Scrypt.derive(password: Array("pleaseletmein".utf8), salt: Array("SodiumChloride".utf8),
                                                parameters: .init(logN: 14, r: 8, p: 1), length: 64))
        #expect(Hex.encode(sodium) == "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887")
    }

    @Test("a stored hash verifies its password only; salts differ; a malformed hash verifies nothing")
    func storedForm() {
        let stored = Scrypt.hash(password: "correct horse", parameters: .init(logN: 10, r: 8, p: 1))
        #expect(stored.hasPrefix("scrypt$10$8$1$"))
        #expect(Scrypt.verify(password: "correct horse", stored: stored))
        #expect(!Scrypt.verify(password: "correct horsf", stored: stored))
        #expect(Scrypt.hash(password: "correct horse", parameters: .init(logN: 10, r: 8, p: 1)) != stored)
        for bad in ["", "scrypt$10$8$1$", "bcrypt$x", "scrypt$99$8$1$AAAA$AAAA", stored + "x", stored.replacingOccurrences(of: "scrypt$10", with: "scrypt$11")] {
            #expect(!Scrypt.verify(password: "correct horse", stored: bad), "\(bad)")
        }
    }

    @Test("session tokens are 256 random bits, checked for form before any lookup; CSRF tokens differ per session and key")
    func sessionTokens() throws {
        let secret = Array("a console secret of the tests, 32+ bytes".utf8)
        var seen = Set<String>()
        try Property.check("console session tokens", count: 300) { rng, seed in
            let token = ConsoleSession.newToken()
            #expect(ConsoleSession.isWellFormedToken(token) && seen.insert(token).inserted, "seed \(seed.hex)")
            #expect(ConsoleSession.digest(of: token).count == 32)
            // What a client could send instead: shorter, longer, another alphabet.
            var bytes = Array(token.utf8)
            let at = rng.int(0...(bytes.count - 1))
            bytes[at] = rng.pick([UInt8(ascii: "."), UInt8(ascii: "="), UInt8(ascii: "/"), UInt8(ascii: "+"), 0x20])
            #expect(!ConsoleSession.isWellFormedToken(String(decoding: bytes, as: UTF8.self)), "seed \(seed.hex)")
            #expect(!ConsoleSession.isWellFormedToken(String(token.dropLast())) && !ConsoleSession.isWellFormedToken(token + "A"))
            let csrf = ConsoleSession.csrfToken(forToken: token, secret: secret)
            #expect(csrf != ConsoleSession.csrfToken(forToken: ConsoleSession.newToken(), secret: secret))
            #expect(csrf != ConsoleSession.csrfToken(forToken: token, secret: Array("another secret of the tests, 32+ bytes!".utf8)))
            #expect(OperatorDecider.isValidSessionID(ConsoleSession.newID()))
        }
        #expect(ConsoleSession.cookieName(https: true) == "__Host-ledger_console" && ConsoleSession.cookieName(https: false) == "ledger_console")
    }
}
