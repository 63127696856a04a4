import AuditModel
import Testing

/// Which finding of a new scan continues which earlier one: the history, pull requests and
/// baselines all ask `FindingMatcher`.
struct FindingMatcherTests {
    func identity(_ fingerprint: String, line: Int, snippet: String = ".font(.system(size: 12))",
                  file: String = "A.swift") -> FindingIdentity {
        FindingIdentity(fingerprint: fingerprint, ruleID: "fixed-font-size", file: file, snippet: snippet, line: line)
    }

    @Test func theSameFingerprintMatchesWhereverTheLineMoved() {
        let matches = FindingMatcher.match(previous: [identity("a", line: 3), identity("b", line: 9)],
                                           current: [identity("b", line: 40), identity("a", line: 30), identity("c", line: 50, snippet: "x")])
        #expect(matches == [1, 0, nil])
    }

    /// The last remaining of two identical lines changes its fingerprint (it no longer needs
    /// its neighbours to be told apart): it continues the nearer one, and the other is fixed.
    @Test func aChangedFingerprintContinuesTheNearestFindingOfTheSameCode() {
        let previous = [identity("first", line: 9), identity("second", line: 11), identity("other", line: 20, file: "B.swift")]
        #expect(FindingMatcher.match(previous: previous, current: [identity("alone", line: 11)]) == [1])
        #expect(FindingMatcher.match(previous: previous, current: [identity("alone", line: 8)]) == [0])
        // Different code, rule or file is never a continuation.
        #expect(FindingMatcher.match(previous: previous, current: [identity("alone", line: 11, snippet: ".font(.system(size: 13))")]) == [nil])
        #expect(FindingMatcher.match(previous: previous, current: [identity("alone", line: 20, file: "C.swift")]) == [nil])
        var otherRule = identity("alone", line: 11)
        otherRule.ruleID = "image-without-label"
        #expect(FindingMatcher.match(previous: previous, current: [otherRule]) == [nil])
        // A current finding reopening one fixed earlier keeps its own fingerprint.
        #expect(FindingMatcher.match(previous: previous, current: [identity("alone", line: 10)], reopening: [0]) == [nil])
    }

    @Test func eachPreviousFindingIsContinuedOnce() {
        let previous = [identity("a", line: 5)]
        #expect(FindingMatcher.match(previous: previous, current: [identity("x", line: 6), identity("y", line: 5)]) == [nil, 0])
        #expect(FindingMatcher.match(previous: previous, current: [identity("a", line: 6), identity("a", line: 7)]) == [0, nil])
    }

    /// What an older build stored (version 1) maps through the legacy fingerprints once, before
    /// any guess by code and line.
    @Test func versionOneFingerprintsMapThroughTheLegacyOnes() {
        let previous = [identity("v1-first", line: 9), identity("v1-second", line: 11)]
        let current = [identity("v2-b", line: 11), identity("v2-a", line: 9)]
        #expect(FindingMatcher.match(previous: previous, current: current, legacy: ["v1-second", "v1-first"]) == [1, 0])
        // Without a legacy match the code and line still pair them.
        #expect(FindingMatcher.match(previous: previous, current: current) == [1, 0])
    }

    /// A version 1 baseline entry holds no code: when its number cannot be worked out again
    /// (version 1 counted a finding that was dropped later), it still holds a finding of its
    /// rule and file that nothing else holds.
    @Test func aCodelessVersionOneEntryHoldsALeftFindingOfItsRuleAndFile() {
        let entries = [identity("v1-a", line: 0, snippet: ""), identity("v1-b", line: 0, snippet: ""),
                       identity("v1-other", line: 0, snippet: "", file: "B.swift")]
        let current = [identity("v2-x", line: 100), identity("v2-y", line: 146), identity("v2-z", line: 7, file: "C.swift")]
        #expect(FindingMatcher.match(previous: entries, current: current, legacy: ["v1-a", "v1-unknown", "v1-none"]) == [0, 1, nil])
        // Only on the legacy path: a store's rows always have their code.
        #expect(FindingMatcher.match(previous: entries, current: current) == [nil, nil, nil])
    }

    @Test func legacyFingerprintsAreVersionOnesOrderedNumbering() {
        func finding(line: Int) -> Finding {
            Finding(ruleID: "fixed-font-size", kind: .recommendation, severity: .warning,
                    location: SourceLocation(file: "A.swift", line: line, column: 5), message: "m", fix: "f",
                    citation: Citation("s", "q"), platforms: .all, snippet: ".font(.system(size: 12))")
        }
        let shuffled = [finding(line: 20), finding(line: 4)]
        let legacy = shuffled.legacyFingerprints()
        let firstAlone = [finding(line: 4)].legacyFingerprints()
        #expect(legacy[1] == firstAlone[0], "the earlier line is occurrence 0 whatever the array's order")
        #expect(legacy[0] != legacy[1])
        var assigned = shuffled
        assigned.assignFingerprints()
        #expect(Set(assigned.map(\.fingerprint)).isDisjoint(with: legacy), "version 2 never reuses a version 1 value")
    }

    @Test func largeGroupsPairInLineOrder() {
        let previous = (0..<300).map { identity("p\($0)", line: $0 * 2) }
        let current = (0..<300).map { identity("c\($0)", line: $0 * 2 + 1) }
        let matches = FindingMatcher.match(previous: previous, current: current)
        #expect(matches == (0..<300).map { Optional($0) })
    }
}
