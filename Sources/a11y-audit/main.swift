import AuditModel
import AuditReport
import ColorAssets
import AuditPipeline
import AuditScanner
import CommandLineOptions
import Foundation
import SwiftChecks

/// Exit codes: 0 clean, 1 findings at or above `--fail-on`, 2 usage or input error.
enum ExitCode: Int32 {
    case clean = 0, findings = 1, usage = 2
}

struct UsageError: Error, CustomStringConvertible {
    let description: String
}

let usage = """
    a11y-audit: audits Apple-platform app repositories for accessibility problems.

    Usage:
      a11y-audit scan <directory | archive.tar.gz | file…> [options]
      a11y-audit fix <directory | file…> [--dry-run] [--rule ID…]
      a11y-audit rules [--format text|markdown]
      a11y-audit version
      a11y-audit help [COMMAND]        (or COMMAND --help: that command's options)

    Scan options:
      --format FORMAT            text, json, sarif, xcode, github, gitlab, junit or markdown
                                 (default: xcode inside an Xcode build phase, text elsewhere)
      --output FILE              write the report to FILE instead of standard output
      --fail-on error|warning|note|none
                                 exit 1 when a violation is at least this severe (default: error)
      --fail-on-review           count findings that need review for --fail-on too (they are notes)
      --config FILE              configuration (default: .a11y-audit.json in the scanned root)
      --platform LIST            comma-separated platforms, overriding the project's (ios,macos,…)
      --jobs N                   files checked in parallel (default: number of cores)
      --cache DIR                reuse per-file results from DIR; only changed files are parsed
      --baseline FILE            report only findings FILE does not hold (config key "baseline")
      --write-baseline FILE      record today's findings in FILE, to pass to --baseline later
      --paths-from FILE          also scan the files FILE lists, one a line (- reads standard
                                 input); files are reported alone, with their repository's context
      --verbose                  show citations and skip summaries in text output
      --color never|always|auto  colour text output (default auto: on a terminal, unless NO_COLOR is set)

    Fix options:
      --dry-run                  print the diff only; change nothing
      --rule ID                  only this rule's fixes (repeat it, or give a comma-separated list)
      --config FILE              configuration (default: .a11y-audit.json in the scanned root)
      --platform LIST            comma-separated platforms, overriding the project's (ios,macos,…)

    Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage or input error; for fix,
    0 when every fix found was applied, 1 when some were left (each named, with why).
    """

func standardError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

let scanCommand = CommandSpec("scan", options: [
    .value("--format"), .value("--output", "-o"), .value("--fail-on"), .flag("--fail-on-review"), .value("--config"),
    .value("--platform", "--platforms"), .value("--jobs", "-j"), .value("--cache"), .value("--baseline"),
    .value("--write-baseline"), .value("--paths-from"), .flag("--verbose", "-v"), .value("--color"),
], maximumPositional: .max, help: CommandHelp.text(for: "scan"))

func runScan(_ arguments: [String]) throws -> ExitCode {
    var targets: [String] = []
    var pathsFrom: String?
    var format: ReportFormat?
    var output: String?
    var failOn: Severity? = .error
    var failOnReview = false
    var configPath: String?
    var platforms: PlatformSet?
    var options = ScanOptions()
    var verbose = false
    var baselinePath: String?
    var writeBaselinePath: String?
    let parsed = try scanCommand.parse(arguments)
    if parsed.helpRequested { throw HelpRequested(text: scanCommand.help) }
    targets = parsed.positional
    if let name = parsed.value("--format") {
        guard let chosen = ReportFormat(rawValue: name) else {
            throw UsageError(description: "--format must be \(ReportFormat.spelledOut), not \"\(name)\"")
        }
        format = chosen
    }
    output = parsed.value("--output")
    if let level = parsed.value("--fail-on") {
        if level == "none" { failOn = nil } else {
            guard let severity = Severity(rawValue: level) else {
                throw UsageError(description: "--fail-on must be error, warning, note or none, not \"\(level)\"")
            }
            failOn = severity
        }
    }
    failOnReview = parsed.has("--fail-on-review")
    configPath = parsed.value("--config")
    if let list = parsed.value("--platform") { platforms = try platformList(list) }
    if let text = parsed.value("--jobs") {
        guard let jobs = Int(text), jobs > 0 else { throw UsageError(description: "--jobs needs a positive number, not \"\(text)\"") }
        options.jobs = jobs
    }
    if let directory = parsed.value("--cache") { options.cacheDirectory = directory }
    baselinePath = parsed.value("--baseline")
    writeBaselinePath = parsed.value("--write-baseline")
    pathsFrom = parsed.value("--paths-from")
    verbose = parsed.has("--verbose")
    let colorChoice: ColorChoice
    if let when = parsed.value("--color") {
        guard let choice = ColorChoice(rawValue: when) else { throw UsageError(description: "--color must be never, always or auto, not \"\(when)\"") }
        colorChoice = choice
    } else {
        colorChoice = .auto
    }
    let target = try ScanTarget.choose(positional: targets, pathsFrom: pathsFrom)
    if case .files = target, writeBaselinePath != nil {
        throw UsageError(description: "--write-baseline records a whole repository's findings: give its folder, not files")
    }
    var config = try configuration(at: configPath)
    var (input, root) = try scanInput(target, config: config, options: &options)
    let rootIsDirectory = !input.isArchive
    // The scanned root's config is read here, not left to the scan, for its "baseline" key.
    if config == nil { config = try Scanner.loadConfig(from: input) }
    options.platforms = platforms
    options.config = config
    input.notes.sort { $0.file < $1.file }
    // Read before the scan writes anything, so --write-baseline over the same file still
    // reports against the old one (and its prune count).
    let baseline = try Baseline.choose(flag: baselinePath, configured: config?.baseline, root: root,
                                       rootIsDirectory: rootIsDirectory)
    var report = try Scanner(options: options).scan(input, root: root)
    if let writeBaselinePath {
        try writeWhole(try Baseline(findings: report.findings).encoded(), to: writeBaselinePath, what: "the baseline")
    }
    if let baseline { report = baseline.apply(to: report) }

    let chosen = format ?? ReportFormat.automatic(environment: ProcessInfo.processInfo.environment)
    let repositoryPath = rootIsDirectory ? ScanInput.repositoryPath(of: root) : ""
    let colors = colorChoice.colors(outputIsTerminal: output == nil && isatty(STDOUT_FILENO) == 1,
                                    environment: ProcessInfo.processInfo.environment)
    let rendered = try chosen.render(report, options: ReportOptions(verbose: verbose, repositoryPath: repositoryPath, color: colors))
    if let output {
        try writeWhole(Data(rendered.utf8), to: output, what: "the report")
        standardError(TextReport.summary(report))
    } else {
        print(rendered, terminator: "")
    }
    // In text the note is also in the report; standard error says it where a pipeline's log shows it.
    if chosen == .text, let outcome = report.baseline { standardError("a11y-audit: " + outcome.message) }
    if let failOn, let highest = report.highestSeverity(includingReview: failOnReview), highest >= failOn { return .findings }
    return .clean
}

/// The `--config` file's configuration; `nil` without one (the scanned root's is read later).
func configuration(at path: String?) throws -> AuditConfig? {
    guard let path else { return nil }
    guard let data = FileManager.default.contents(atPath: path) else { throw ScanError.notFound(path) }
    do {
        return try AuditConfig(data: data, file: path, knownRules: Set(RuleCatalog.allRuleIDs))
    } catch let error as AuditConfigError { throw ScanError.config(error) }
}

/// What a scan of `target` reads, and the root its paths are relative to; a list of files sets
/// `options.selection`.
func scanInput(_ target: ScanTarget, config: AuditConfig?, options: inout ScanOptions) throws -> (ScanInput, String) {
    switch target {
    case .directory(let path):
        return (try ScanInput.directory(path, maxFileBytes: AuditConfig().maxFileBytes), URL(fileURLWithPath: path).standardizedFileURL.path)
    case .archive(let path):
        // An archive's files over `maxFileBytes` are skipped while it streams: the limit is the
        // --config file's when there is one, else the reader takes it from the archive's own.
        return (try ScanInput.archive(path, maxFileBytes: ScanInput.archiveEntryCap,
                                      limits: ArchiveLimits(configuredMaxFileBytes: config?.maxFileBytes)), path)
    case .files(let selection):
        // The whole repository is read for its context; nothing at all when no file given is
        // of a kind the scan checks.
        options.selection = selection
        let input = selection.files.isEmpty ? ScanInput(files: []) : try ScanInput.directory(selection.root, maxFileBytes: AuditConfig().maxFileBytes)
        return (input, selection.root)
    }
}

/// `--platform ios,macos`.
func platformList(_ text: String) throws -> PlatformSet {
    var set = PlatformSet()
    for name in text.split(separator: ",") {
        guard let platform = Platform(spelling: String(name)) else {
            throw UsageError(description: "unknown platform \"\(name)\"; use ios, macos, tvos, visionos, watchos")
        }
        set.insert(PlatformSet(platform))
    }
    guard !set.isEmpty else { throw UsageError(description: "--platform needs at least one platform") }
    return set
}

/// Writes `data` to `path` whole: through a temporary file renamed over it, so a reader never
/// sees half of it; a device or pipe (/dev/null, /dev/stdout, a FIFO) is written into instead,
/// never renamed over. `what` names the file in errors.
func writeWhole(_ data: Data, to path: String, what: String) throws {
    var info = stat()
    if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw ScanError.unreadable(path: path, reason: "cannot write \(what) there")
        }
        handle.write(data)
        try? handle.close()
        return
    }
    let temporary = path + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
    guard FileManager.default.createFile(atPath: temporary, contents: data), rename(temporary, path) == 0 else {
        unlink(temporary)
        throw ScanError.unreadable(path: path, reason: "cannot write \(what) there")
    }
}

func main() -> ExitCode {
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard let command = arguments.first else {
        standardError(usage)
        return .usage
    }
    arguments.removeFirst()
    // `a11y-audit help scan` is `a11y-audit scan --help`.
    if ["help", "--help", "-h"].contains(command), let topic = arguments.first {
        guard CommandHelp.commands.contains(topic) else {
            standardError("a11y-audit: " + CommandLineError.unknownCommand(topic, suggestion: Suggestion.closest(to: topic, among: CommandHelp.commands)).description)
            return .usage
        }
        print(CommandHelp.text(for: topic))
        return .clean
    }
    do {
        // The bundled reference tables are checked before any rule needs them, so a broken
        // installation is an error message, not a crash in the middle of a scan.
        try ReferenceData.check()
        try ColorReference.check()
        switch command {
        case "scan":
            return try runScan(arguments)
        case "fix":
            return try runFix(arguments)
        case "scan-child":
            // Internal: a worker's isolated checks of one snapshot (AuditPipeline.ScanChild).
            exit(ScanChild.main(arguments))
        case "rules":
            let flags = try Flags("rules", arguments, valued: ["--format"], switches: [])
            let format = flags.value("--format") ?? "text"
            guard ["text", "markdown"].contains(format) else { throw UsageError(description: "--format must be text or markdown, not \"\(format)\"") }
            print(format == "markdown" ? RulesReference.markdown() : RulesReference.text(), terminator: "")
            return .clean
        case "migrate": return try runMigrate(arguments)
        case "schedule": return try runSchedule(arguments)
        case "coordinator": return try runCoordinator(arguments)
        case "worker": return try runWorker(arguments)
        case "status": return try runStatus(arguments)
        case "cancel": return try runCancel(arguments)
        case "prune": return try runPrune(arguments)
        case "render": return try runRender(arguments)
        case "serve": return try runServe(arguments)
        case "version", "--version":
            _ = try Flags("version", arguments, valued: [], switches: [])
            print("a11y-audit \(Scanner.toolVersion)")
            return .clean
        case "help", "--help", "-h":
            print(CommandHelp.full)
            return .clean
        default:
            throw CommandLineError.unknownCommand(command, suggestion: Suggestion.closest(to: command, among: CommandHelp.commands))
        }
    } catch let help as HelpRequested {
        print(help.text)
        return .clean
    } catch let error as CommandLineError {
        standardError("a11y-audit: \(error.description)")
        return .usage
    } catch let error as UsageError {
        // One line, and where the command's options are.
        let topic = CommandHelp.commands.contains(command) ? command + " " : ""
        standardError("a11y-audit: \(error.description)\nsee 'a11y-audit \(topic)--help'")
        return .usage
    } catch {
        standardError("a11y-audit: \(error)")
        return .usage
    }
}

exit(main().rawValue)
