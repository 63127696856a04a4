/// What identifies a finding between two scans: the fingerprint, and the rule, file, normalised
/// code and line that a continuation is recognised by when the fingerprint changed.
public struct FindingIdentity: Sendable, Hashable {
    public var fingerprint: String
    public var ruleID: String
    public var file: String
    /// Empty where not known (a version 1 baseline entry): then only the fingerprint matches.
    public var snippet: String
    public var line: Int

    public init(fingerprint: String, ruleID: String, file: String, snippet: String, line: Int) {
        self.fingerprint = fingerprint; self.ruleID = ruleID; self.file = file; self.snippet = snippet; self.line = line
    }

    public init(_ finding: Finding) {
        self.init(fingerprint: finding.fingerprint, ruleID: finding.ruleID, file: finding.location.file,
                  snippet: finding.snippet, line: finding.location.line)
    }

    fileprivate var code: String? { snippet.isEmpty ? nil : ruleID + "\u{0}" + file + "\u{0}" + snippet }
}

/// Decides which finding of a new scan continues which finding of an earlier one: the nightly
/// history, a pull request against its base and a baseline file all ask it, so a finding is the
/// same one everywhere.
public enum FindingMatcher {
    /// For each of `current`, the index in `previous` of the finding it continues, or nil (new);
    /// each previous finding is continued at most once. In order:
    /// 1. the same fingerprint;
    /// 2. a previous version 1 fingerprint equal to the current finding's (`legacy`, from
    ///    `[Finding].legacyFingerprints()`): the one-time mapping of what an older build stored,
    ///    so no finding turns new on the upgrade;
    /// 3. among what is left, the same rule, file and code, the nearest line first: the line
    ///    next to a finding was edited (its fingerprint names its neighbours), and it is still
    ///    the same finding. Current findings in `reopening` (their fingerprint belongs to a
    ///    finding fixed earlier, which they reopen) are left out of this step;
    /// 4. a previous finding known only by fingerprint, rule and file (a version 1 baseline
    ///    entry) whose legacy fingerprint matched nothing (version 1 numbered findings before
    ///    some were dropped, so its number cannot be worked out again) continues a current
    ///    finding of the same rule and file that is left, in order.
    public static func match(previous: [FindingIdentity], current: [FindingIdentity], legacy: [String]? = nil,
                             reopening: Set<Int> = []) -> [Int?] {
        var result = [Int?](repeating: nil, count: current.count)
        var taken = [Bool](repeating: false, count: previous.count)
        var byFingerprint: [String: Int] = [:]
        for (index, identity) in previous.enumerated() where byFingerprint[identity.fingerprint] == nil {
            byFingerprint[identity.fingerprint] = index
        }
        for (index, identity) in current.enumerated() {
            if let match = byFingerprint[identity.fingerprint], !taken[match] { result[index] = match; taken[match] = true }
        }
        if let legacy {
            for index in current.indices where result[index] == nil && index < legacy.count {
                if let match = byFingerprint[legacy[index]], !taken[match] { result[index] = match; taken[match] = true }
            }
        }
        var leftPrevious: [String: [Int]] = [:]
        for (index, identity) in previous.enumerated() where !taken[index] {
            if let code = identity.code { leftPrevious[code, default: []].append(index) }
        }
        if !leftPrevious.isEmpty {
            var leftCurrent: [String: [Int]] = [:]
            for (index, identity) in current.enumerated() where result[index] == nil && !reopening.contains(index) {
                if let code = identity.code, leftPrevious[code] != nil { leftCurrent[code, default: []].append(index) }
            }
            for (code, currents) in leftCurrent {
                guard let previouses = leftPrevious[code] else { continue }
                for (currentIndex, previousIndex) in nearestPairs(currents.map { current[$0].line }, previouses.map { previous[$0].line }) {
                    result[currents[currentIndex]] = previouses[previousIndex]
                    taken[previouses[previousIndex]] = true
                }
            }
        }
        guard legacy != nil else { return result }
        var codeless: [String: [Int]] = [:]
        for (index, identity) in previous.enumerated() where !taken[index] && identity.snippet.isEmpty {
            codeless[identity.ruleID + "\u{0}" + identity.file, default: []].append(index)
        }
        guard !codeless.isEmpty else { return result }
        for index in current.indices.sorted(by: { current[$0].line < current[$1].line }) where result[index] == nil && !reopening.contains(index) {
            let key = current[index].ruleID + "\u{0}" + current[index].file
            if var waiting = codeless[key], !waiting.isEmpty {
                result[index] = waiting.removeFirst()
                codeless[key] = waiting
            }
        }
        return result
    }

    /// Pairs of positions in `a` and `b`, closest lines first (ties by order), each used once.
    /// Large groups (thousands of identical snippets changing at once) pair in line order.
    static func nearestPairs(_ a: [Int], _ b: [Int]) -> [(Int, Int)] {
        if a.count * b.count > 40_000 {
            let sortedA = a.indices.sorted { (a[$0], $0) < (a[$1], $1) }
            let sortedB = b.indices.sorted { (b[$0], $0) < (b[$1], $1) }
            return Array(zip(sortedA, sortedB))
        }
        var candidates: [(distance: Int, i: Int, j: Int)] = []
        candidates.reserveCapacity(a.count * b.count)
        for i in a.indices { for j in b.indices { candidates.append((abs(a[i] - b[j]), i, j)) } }
        candidates.sort { ($0.distance, $0.i, $0.j) < ($1.distance, $1.i, $1.j) }
        var usedA = Set<Int>(), usedB = Set<Int>()
        var pairs: [(Int, Int)] = []
        for candidate in candidates where !usedA.contains(candidate.i) && !usedB.contains(candidate.j) {
            usedA.insert(candidate.i); usedB.insert(candidate.j)
            pairs.append((candidate.i, candidate.j))
        }
        return pairs
    }
}
