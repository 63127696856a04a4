@testable import AuditPipeline
import Testing

/// A job's ref is stored as its commit only when it is one: `Character.isHexDigit` also takes
/// fullwidth and other scripts' digits, which no git object id contains.
@Suite struct CommitRefTests {
    @Test func onlyFortyASCIIHexDigitsAreACommit() {
        #expect(JobAudit.looksLikeCommit("ec26c3e57ca3a959ca5aad62de7213c562f8c821"))
        #expect(JobAudit.looksLikeCommit("EC26C3E57CA3A959CA5AAD62DE7213C562F8C821"))
        #expect(!JobAudit.looksLikeCommit(String(repeating: "\u{FF41}", count: 40)), "fullwidth a")
        #expect(!JobAudit.looksLikeCommit(String(repeating: "\u{0663}", count: 40)), "Arabic-Indic three")
        #expect(!JobAudit.looksLikeCommit(String(repeating: "a", count: 39) + "\u{FF10}"), "fullwidth zero")
        #expect(!JobAudit.looksLikeCommit("main"))
        #expect(!JobAudit.looksLikeCommit(String(repeating: "a", count: 41)))
    }
}
