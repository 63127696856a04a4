import AuditModel

/// Why `a11y-audit fix` leaves a file (or one finding's edit) alone, said so a person knows what to do.
public enum FixRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The finding's edit touches the bytes another finding's edit changes, or inserts at the same place.
    case overlaps(ruleID: String, line: Int, column: Int)
    /// An edit lies outside the file or cuts a character: the file changed since it was scanned.
    case stale
    /// The file is not UTF-8, so the scan's offsets may not be its bytes.
    case notUTF8
    /// With its edits the file would not parse cleanly (or did not parse cleanly before them).
    case wouldNotParse(line: Int, column: Int, message: String, brokenBefore: Bool)
    /// The file could not be read or replaced.
    case io(String)

    public var description: String {
        switch self {
        case .overlaps(let rule, let line, let column):
            "its edit overlaps the fix of \(rule) at \(line):\(column); run `a11y-audit fix` again once that one is applied"
        case .stale:
            "an edit does not fit the file as it is now (changed since the scan?); run `a11y-audit fix` again"
        case .notUTF8:
            "the file is not valid UTF-8; save it as UTF-8 and run `a11y-audit fix` again"
        case .wouldNotParse(let line, let column, let message, let before):
            before
                ? "the file does not parse cleanly (\(line):\(column): \(message)), so an edit to it cannot be checked; fix the syntax error first"
                : "with the edits the file would not parse (\(line):\(column): \(message)); left as it was, fix it by hand"
        case .io(let reason):
            reason
        }
    }
}

/// A failure to apply edits to bytes, by `EditApplication`.
public enum EditError: Error, Sendable, Hashable, CustomStringConvertible {
    case overlapping(TextEdit, TextEdit)
    case outOfRange(TextEdit, fileBytes: Int)
    case splitsCharacter(TextEdit)

    public var description: String {
        switch self {
        case .overlapping(let first, let second):
            "edits at \(first.start.line):\(first.start.column) and \(second.start.line):\(second.start.column) of \(first.file) overlap"
        case .outOfRange(let edit, let size):
            "the edit at \(edit.start.line):\(edit.start.column) of \(edit.file) reaches byte \(edit.end.offset) of a \(size)-byte file"
        case .splitsCharacter(let edit):
            "the edit at \(edit.start.line):\(edit.start.column) of \(edit.file) does not start and end between characters"
        }
    }

    var refusal: FixRefusal {
        switch self {
        case .overlapping(let first, _): .overlaps(ruleID: "another finding", line: first.start.line, column: first.start.column)
        case .outOfRange, .splitsCharacter: .stale
        }
    }
}
