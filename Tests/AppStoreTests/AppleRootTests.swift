import Crypto
import Testing
import TestSupport
@testable import AppStore

@Suite(.bounded) struct AppleRootTests {
    /// The fingerprint Apple publishes for Apple Root CA - G3 (../shared/testdata/apple/README.md).
    @Test func embeddedRootIsAppleRootCAG3() {
        #expect(Hex.encode(SHA256.hash(AppleRootCAG3.der)) == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
    }
}
