import API
import Crypto
import Testing
import TestSupport

/// The console's password hashing (scrypt through OpenSSL) and signed session cookies.
@Suite("Console credentials and sessions")
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

    @Test("session cookies: any changed byte, another key or an expired session is refused (generated cases)")
    func sessionCookies() {
        var random = SeededRandom(seed: 14)
        let secret = Array("a console secret of the tests, 32+ bytes".utf8)
        for i in 0..<300 {
            let issued = Int64(1_700_000_000 + Int(random.next() % 1_000_000))
            let session = ConsoleSession(operatorName: "op-\(i)", credential: "c-\(random.next() % 1000)", issuedAt: issued)
            let value = session.cookieValue(secret: secret)
            #expect(ConsoleSession(cookieValue: value, secret: secret, now: issued + 10) == session)
            #expect(ConsoleSession(cookieValue: value, secret: secret, now: issued + ConsoleSession.lifetime) == nil)
            #expect(ConsoleSession(cookieValue: value, secret: Array("another secret of the tests, 32+ bytes!".utf8), now: issued) == nil)
            var bytes = Array(value.utf8)
            let at = Int(random.next() % UInt64(bytes.count))
            bytes[at] = bytes[at] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            #expect(ConsoleSession(cookieValue: String(decoding: bytes, as: UTF8.self), secret: secret, now: issued) == nil)
            #expect(session.csrfToken(secret: secret) != ConsoleSession(operatorName: session.operatorName, credential: session.credential,
                                                                       issuedAt: issued).csrfToken(secret: secret))
        }
    }
}
