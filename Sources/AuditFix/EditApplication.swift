import AuditModel

/// Applies text edits to a file's bytes: pure, all or nothing.
public enum EditApplication {
    /// `bytes` with every edit applied. Refuses edits that overlap (`TextEdit.conflicts`), reach
    /// past the end, or start or end inside a UTF-8 character.
    public static func apply(_ edits: [TextEdit], to bytes: [UInt8]) throws(EditError) -> [UInt8] {
        let sorted = edits.sorted { ($0.start.offset, $0.end.offset) < ($1.start.offset, $1.end.offset) }
        for edit in sorted {
            guard 0 <= edit.start.offset, edit.start.offset <= edit.end.offset, edit.end.offset <= bytes.count else {
                throw .outOfRange(edit, fileBytes: bytes.count)
            }
            guard isBoundary(edit.start.offset, in: bytes), isBoundary(edit.end.offset, in: bytes) else { throw .splitsCharacter(edit) }
        }
        for (index, edit) in sorted.enumerated() {
            if let other = sorted[(index + 1)...].first(where: edit.conflicts) { throw .overlapping(edit, other) }
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + sorted.reduce(0) { $0 + $1.replacement.utf8.count })
        var position = 0
        for edit in sorted {
            result += bytes[position..<edit.start.offset]
            result += Array(edit.replacement.utf8)
            position = edit.end.offset
        }
        result += bytes[position...]
        return result
    }

    /// Not inside a multi-byte character: the byte there is no continuation byte.
    static func isBoundary(_ offset: Int, in bytes: [UInt8]) -> Bool {
        offset == bytes.count || bytes[offset] & 0xC0 != 0x80
    }
}
