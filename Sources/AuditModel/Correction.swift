import Foundation

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

extension Correction {
    /// The finding's line as the correction leaves it, when every edit on that line lies within
    /// it: what a report shows as the suggested line. Columns count Unicode scalars from 1, as
    /// the edits' points do. Nil when an edit on the line reaches past it (or the line is not
    /// the one the edits were made against).
    public func editedLine(_ text: String, number: Int) -> String? {
        let scalars = Array(text.unicodeScalars)
        let onLine = edits.filter { $0.start.line == number || $0.end.line == number }
        guard !onLine.isEmpty else { return nil }
        var result = String.UnicodeScalarView()
        var cursor = 0
        for edit in onLine.sorted(by: { $0.start.offset < $1.start.offset }) {
            guard edit.start.line == number, edit.end.line == number else { return nil }
            let (from, to) = (edit.start.column - 1, edit.end.column - 1)
            guard from >= cursor, to >= from, to <= scalars.count else { return nil }
            result.append(contentsOf: scalars[cursor..<from])
            result.append(contentsOf: edit.replacement.unicodeScalars)
            cursor = to
        }
        result.append(contentsOf: scalars[cursor...])
        return String(result)
    }

    /// The edits away from the finding's line (an `adjustsFontForContentSizeCategory` set after
    /// the font, for example), as "line 14: insert `…`".
    public func editsElsewhere(than number: Int) -> [String] {
        edits.filter { $0.start.line != number && $0.end.line != number }.map { edit in
            let text = edit.replacement.trimmingCharacters(in: .whitespacesAndNewlines)
            return edit.isInsertion ? "line \(edit.start.line): insert `\(text)`" : "line \(edit.start.line): replace with `\(text)`"
        }
    }
}

extension Correction {
    /// The stored form (`findings.correction`): JSON with sorted keys, so the same fix is the
    /// same text from night to night (the history writer compares it to decide whether a
    /// finding changed). JSON escapes a NUL, which a text column could not hold.
    public var storedJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings and integers only: encoding cannot fail.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    public init?(storedJSON: String) {
        guard let decoded = try? JSONDecoder().decode(Correction.self, from: Data(storedJSON.utf8)) else { return nil }
        self = decoded
    }
}

extension String {
    /// PostgreSQL's text and jsonb cannot hold NUL: a file with one past the binary check's
    /// first 8 KiB must not make its repository's job fail on every attempt.
    public var replacingNUL: String {
        contains("\u{0}") ? replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") : self
    }
}
