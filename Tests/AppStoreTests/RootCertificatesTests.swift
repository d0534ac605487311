import Foundation
import Testing
import TestSupport
@testable import AppStore

@Suite(.bounded) struct RootCertificatesTests {
    static func pem(_ der: [UInt8]) -> String {
        let body = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----\n"
    }

    @Test func derAndPEM() {
        let root = TestCertificateAuthority.shared.rootDER
        let xcode = TestXcodeCertificate.shared.der
        #expect(AppStoreRootCertificates.certificates(in: root) == [root])
        #expect(AppStoreRootCertificates.certificates(in: Array(Self.pem(root).utf8)) == [root])
        let two = "subject=whatever\n" + Self.pem(root) + "\n" + Self.pem(xcode)
        #expect(AppStoreRootCertificates.certificates(in: Array(two.utf8)) == [root, xcode])
    }

    @Test func garbageIsNil() {
        #expect(AppStoreRootCertificates.certificates(in: []) == nil)
        #expect(AppStoreRootCertificates.certificates(in: Array("hello".utf8)) == nil)
        #expect(AppStoreRootCertificates.certificates(in: Array("-----BEGIN CERTIFICATE-----\nbm90\n-----END CERTIFICATE-----".utf8)) == nil)
        #expect(AppStoreRootCertificates.certificates(in: Array("-----BEGIN CERTIFICATE-----\nMII".utf8)) == nil)
        #expect(AppStoreRootCertificates.certificates(in: Array(TestCertificateAuthority.shared.rootDER.dropLast())) == nil)
    }

    @Test(.needsSharedData)
    func applesFilesReadAsTheEmbeddedRoot() throws {
        let folder = try SharedTestData.appleFolder()
        for name in ["AppleRootCA-G3.cer", "AppleRootCA-G3.pem"] {
            let data = try #require(FileManager.default.contents(atPath: folder + "/" + name))
            #expect(AppStoreRootCertificates.certificates(in: [UInt8](data)) == [AppleRootCAG3.der], "\(name)")
        }
    }
}
