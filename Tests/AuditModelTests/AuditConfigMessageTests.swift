import AuditModel
import Foundation
import Testing

/// A repository's configuration is input too: its errors quote at most an excerpt of it.
struct AuditConfigMessageTests {
    @Test func errorsQuoteAtMostEightyCharactersOfTheConfiguration() {
        let long = String(repeating: "k", count: 100_000)
        let documents = [#"{"\#(long)": 1}"#, #"{"disable": ["\#(long)"]}"#, #"{"maxFileBytes": "\#(long)"}"#]
        for document in documents {
            do {
                _ = try AuditConfig(data: Data(document.utf8), file: ".a11y-audit.json", knownRules: ["a-rule"])
                Issue.record("accepted \(document.prefix(40))")
            } catch let error as AuditConfigError {
                #expect(error.description.count < 400 && error.description.contains(String(long.prefix(80)) + "…"),
                        "\(error.description.prefix(200))")
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}

struct InputExcerptTests {
    @Test func capsAtEightyScalarsAndEscapesWhatCouldForgeOrReorderText() {
        #expect(InputExcerpt.of("Brand") == "Brand")
        #expect(InputExcerpt.of(String(repeating: "a", count: 80)) == String(repeating: "a", count: 80))
        #expect(InputExcerpt.of(String(repeating: "a", count: 81)) == String(repeating: "a", count: 80) + "…")
        // One character of a million combining marks is still capped.
        #expect(InputExcerpt.of("e" + String(repeating: "\u{301}", count: 1_000_000)).unicodeScalars.count == 81)
        #expect(InputExcerpt.of("a\nb\u{202E}c\u{1B}[2J") == "a\\u{A}b\\u{202E}c\\u{1B}[2J")
        #expect(InputExcerpt.of(utf8: Array(repeating: UInt8(ascii: "x"), count: 10_000)) == String(repeating: "x", count: 80) + "…")
        #expect(InputExcerpt.of(utf8: [0x61, 0xC3]) == "a\u{FFFD}")
    }
}
