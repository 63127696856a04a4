import AuditFix
import AuditScanner
import CommandLineOptions
import Foundation
import SwiftChecks

/// `a11y-audit fix`: scans as `scan` does, applies the corrections its findings carry (each
/// file whole, checked to parse), prints the diff on standard output and what was left on
/// standard error.
let fixCommand = CommandSpec("fix", options: [
    .flag("--dry-run", "-n"), .value("--rule", "--rules", repeatable: true), .value("--config"), .value("--platform", "--platforms"),
], maximumPositional: .max, help: CommandHelp.text(for: "fix"))

func runFix(_ arguments: [String]) throws -> ExitCode {
    var targets: [String] = []
    var dryRun = false
    var rules: Set<String>?
    var configPath: String?
    var options = ScanOptions()
    let parsed = try fixCommand.parse(arguments)
    if parsed.helpRequested { throw HelpRequested(text: fixCommand.help) }
    targets = parsed.positional
    dryRun = parsed.has("--dry-run")
    let known = RuleCatalog.allRuleIDs
    for id in parsed.all("--rule").flatMap({ $0.split(separator: ",").map(String.init) }) {
        guard known.contains(id) else {
            let guess = Suggestion.closest(to: id, among: known).map { "; did you mean \"\($0)\"?" } ?? ""
            throw UsageError(description: "unknown rule \"\(id)\"\(guess) (`a11y-audit rules` lists the catalog)")
        }
        rules = (rules ?? []).union([id])
    }
    configPath = parsed.value("--config")
    if let list = parsed.value("--platform") { options.platforms = try platformList(list) }
    guard !targets.isEmpty else { throw UsageError(description: "fix needs a directory or files to fix") }
    let target = try ScanTarget.choose(positional: targets, pathsFrom: nil)
    if case .archive(let path) = target {
        throw UsageError(description: "fix edits files in place: give the folder \(path) was made from, not the archive")
    }
    var config = try configuration(at: configPath)
    let (input, root) = try scanInput(target, config: config, options: &options)
    if config == nil { config = try Scanner.loadConfig(from: input) }
    options.config = config
    let report = try Scanner(options: options).scan(input, root: root)

    var plan = FixPlan.make(report.findings, rules: rules) { path in
        guard let data = FileManager.default.contents(atPath: root + "/" + path) else { throw ScanError.notFound(path) }
        return [UInt8](data)
    }
    if !dryRun { plan.write(under: root) }
    for change in plan.changes { print(change.diff, terminator: "") }
    let count = plan.fixed.count
    let files = plan.changes.count == 1 ? "1 file" : "\(plan.changes.count) files"
    standardError("a11y-audit: \(dryRun ? "would fix" : "fixed") \(count) finding\(count == 1 ? "" : "s") in \(files)")
    for refusal in plan.refusals.sorted(by: { $0.path < $1.path }) {
        let findings = refusal.findings.map { "\($0.location.line):\($0.location.column) \($0.ruleID)" }.joined(separator: ", ")
        standardError("a11y-audit: not fixed in \(refusal.path) (\(findings)): \(refusal.reason)")
    }
    return plan.refusals.isEmpty ? .clean : .findings
}
