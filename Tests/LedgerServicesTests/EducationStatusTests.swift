import LedgerServices
import Testing
import TestSupport

@Suite("Education status", .bounded)
struct EducationStatusTests {
    @Test("O8/O9: a staff decision outranks the school domain, either way")
    func education() {
        #expect(EducationStatus(staffDecision: false, autoDomain: "school.edu") == .staff(eligible: false))
        #expect(EducationStatus(staffDecision: true, autoDomain: nil) == .staff(eligible: true))
        #expect(EducationStatus(staffDecision: nil, autoDomain: "school.edu") == .domain("school.edu"))
        #expect(EducationStatus(staffDecision: nil, autoDomain: nil) == .undecided)
    }
}
