import AuditFix
import AuditModel
import Testing

/// An edit of `file` from byte `start` to `end` (line 1, columns = offset + 1: one-line text).
func edit(_ start: Int, _ end: Int, _ replacement: String, file: String = "A.swift") -> TextEdit {
    TextEdit(file: file, start: TextPoint(offset: start, line: 1, column: start + 1),
             end: TextPoint(offset: end, line: 1, column: end + 1), replacement: replacement)
}

struct EditApplicationTests {
    @Test func editsApplyInFileOrderWhateverOrderTheyCome() throws {
        let bytes = Array("let a = 1; let b = 2".utf8)
        let result = try EditApplication.apply([edit(19, 20, "20"), edit(8, 9, "10"), edit(10, 10, " //")], to: bytes)
        #expect(String(decoding: result, as: UTF8.self) == "let a = 10; // let b = 20")
    }

    @Test func overlappingEditsAndInsertionsAtOnePlaceAreRefused() {
        let bytes = Array("abcdef".utf8)
        #expect(throws: EditError.self) { try EditApplication.apply([edit(1, 4, "x"), edit(3, 5, "y")], to: bytes) }
        #expect(throws: EditError.self) { try EditApplication.apply([edit(2, 2, "x"), edit(2, 2, "y")], to: bytes) }
        #expect(throws: EditError.self) { try EditApplication.apply([edit(1, 4, "x"), edit(2, 2, "y")], to: bytes) }
        // Edits that only meet at a boundary are fine: an insertion before a replacement, two neighbours.
        #expect(throws: Never.self) { try EditApplication.apply([edit(1, 3, "x"), edit(3, 4, "y"), edit(1, 1, "z")], to: bytes) }
    }

    @Test func editsOutsideTheFileOrInsideACharacterAreRefused() {
        let bytes = Array("é = 1".utf8)   // é is two bytes
        #expect(throws: EditError.outOfRange(edit(4, 9, ""), fileBytes: 6)) { try EditApplication.apply([edit(4, 9, "")], to: bytes) }
        #expect(throws: EditError.splitsCharacter(edit(1, 2, "e"))) { try EditApplication.apply([edit(1, 2, "e")], to: bytes) }
        #expect(throws: Never.self) { try EditApplication.apply([edit(0, 2, "e")], to: bytes) }
    }

    @Test func editsOfOtherFilesNeverConflict() {
        #expect(!edit(0, 3, "x").conflicts(with: edit(1, 2, "y", file: "B.swift")))
        #expect(edit(0, 3, "x").conflicts(with: edit(1, 2, "y")))
    }
}
