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
