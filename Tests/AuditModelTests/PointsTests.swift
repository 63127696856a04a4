import AuditModel
import Testing

struct PointsTests {
    @Test func sizesReadAsPeopleWriteThemAndNeverRoundUpToAThreshold() {
        #expect(44.0.points == "44")
        #expect(20.5.points == "20.5")
        #expect(20.3.points == "20.3", "no floating-point residue")
        #expect(31.666666666666668.points == "31.66")
        #expect(34.333333333333336.points == "34.33")
        #expect(43.999.points == "43.99", "just short of 44 stays short")
        #expect(44.001.points == "44")
        #expect((-2.5).points == "-2.5")
    }
}
