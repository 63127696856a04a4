/// A point in a file: a UTF-8 byte offset from the start, and the same place as a 1-based line
/// and column (the column counted in Unicode scalars, SARIF's `unicodeCodePoints`).
public struct TextPoint: Codable, Sendable, Hashable, Comparable {
    public var offset: Int
    public var line: Int
    public var column: Int

    public init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    public static func < (lhs: TextPoint, rhs: TextPoint) -> Bool { lhs.offset < rhs.offset }
}

/// One replacement in one file: the bytes from `start` up to (not including) `end` give way to
/// `replacement`. An insertion has `start == end`.
public struct TextEdit: Codable, Sendable, Hashable {
    /// Path relative to the scanned root, with `/` separators (as `SourceLocation.file`).
    public var file: String
    public var start: TextPoint
    public var end: TextPoint
    public var replacement: String

    public init(file: String, start: TextPoint, end: TextPoint, replacement: String) {
        self.file = file
        self.start = start
        self.end = end
        self.replacement = replacement
    }

    public var isInsertion: Bool { start.offset == end.offset }

    /// Whether the two edits touch the same bytes, or insert at the same place or inside what
    /// the other replaces: applying both would leave their order, or what survives, unclear.
    public func conflicts(with other: TextEdit) -> Bool {
        guard file == other.file else { return false }
        let (a, b) = (start.offset..<end.offset, other.start.offset..<other.end.offset)
        if a.overlaps(b) { return true }
        if a.isEmpty && b.isEmpty { return a.lowerBound == b.lowerBound }
        if a.isEmpty { return b.lowerBound < a.lowerBound && a.lowerBound < b.upperBound }
        if b.isEmpty { return a.lowerBound < b.lowerBound && b.lowerBound < a.upperBound }
        return false
    }
}

/// A mechanical fix of one finding: edits that keep the code compiling and its default look
/// unchanged, applied together by `a11y-audit fix` and offered as SARIF `fixes`.
public struct Correction: Codable, Sendable, Hashable {
    /// What the edits do, for a person: "Use `.body`, the text style of 17 pt at the default size".
    public var summary: String
    /// Non-overlapping edits, in file order.
    public var edits: [TextEdit]

    public init(summary: String, edits: [TextEdit]) {
        self.summary = summary
        self.edits = edits.sorted { ($0.file, $0.start.offset, $0.end.offset) < ($1.file, $1.start.offset, $1.end.offset) }
    }
}
