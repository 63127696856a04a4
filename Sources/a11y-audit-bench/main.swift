import AuditModel
import AuditScanner
import Foundation
import Synchronization
import SwiftChecks
import SwiftParser

// Benchmarks, each a ratio measured side by side in one run on the same files (see
// docs/benchmarks.md). Build in release: `swift build -c release` then
// `.build/release/a11y-audit-bench [--files N] [--rounds R] [--corpus DIR]`.

struct Options {
    var files = 1200
    var rounds = 3
    var corpus: String?
    /// `parse` or `scan`: run only that measurement once, for an instruction count under
    /// `valgrind --tool=callgrind`, which is exact where wall time is noisy.
    var only: String?
    /// `--only org`: how many generated repositories the organisation has.
    var repositories = 200
    /// `--only render`: nights of generated history.
    var nights = 90
    /// Writes the colour corpus (the generated files plus 200 colour sets) here and exits, to
    /// compare two builds' findings on it.
    var writeCorpus: String?
    /// `--only dashboard-sql`: also print each query's executed plan (auto_explain) to stderr.
    var explain = false
    /// `--only sim-render`: where the site goes (default: a temporary folder).
    var out: String?
    /// `--only sim-render`: skip the two full renders (the site in `--out` is already rendered).
    var incrementalOnly = false
    /// `--only drain`: jobs enqueued at once, worker processes, SIGKILLs during the drain, and
    /// the seed that picks when and whom to kill.
    var jobs = 10_000
    var workers = 32
    var kills = 0
    var seed: UInt64?
    /// `--only drain`: more flags for every worker (`--worker-flag --no-isolation` measures the
    /// cost of isolating each job's checks in a child process).
    var workerFlags: [String] = []
    /// `--only drain`: every job's archive is a tar.gz of this folder instead of the tiny one
    /// (a real app, to see what isolation costs where the checks take seconds).
    var drainFolder: String?
}

func parseOptions() -> Options {
    var options = Options()
    var iterator = CommandLine.arguments.dropFirst().makeIterator()
    while let argument = iterator.next() {
        switch argument {
        case "--files": options.files = iterator.next().flatMap(Int.init) ?? options.files
        case "--rounds": options.rounds = iterator.next().flatMap(Int.init) ?? options.rounds
        case "--corpus": options.corpus = iterator.next()
        case "--only": options.only = iterator.next()
        case "--repositories": options.repositories = iterator.next().flatMap(Int.init) ?? options.repositories
        case "--nights": options.nights = iterator.next().flatMap(Int.init) ?? options.nights
        case "--write-color-corpus": options.writeCorpus = iterator.next()
        case "--explain": options.explain = true
        case "--out": options.out = iterator.next()
        case "--incremental-only": options.incrementalOnly = true
        case "--jobs": options.jobs = iterator.next().flatMap(Int.init) ?? options.jobs
        case "--workers": options.workers = iterator.next().flatMap(Int.init) ?? options.workers
        case "--kills": options.kills = iterator.next().flatMap(Int.init) ?? options.kills
        case "--seed": options.seed = iterator.next().flatMap { UInt64($0) }
        case "--worker-flag": options.workerFlags += iterator.next().map { [$0] } ?? []
        case "--drain-folder": options.drainFolder = iterator.next()
        default:
            FileHandle.standardError.write(Data("usage: a11y-audit-bench [--files N] [--rounds R] [--corpus DIR] [--only parse|scan|setup|warm|layout-off|colors|colors-plain|colors-setup|colors-wall|queue|org|render|pr|drain|dashboard-sql|sim-render|sim-night] [--repositories N] [--nights N] [--write-color-corpus DIR] [--jobs N] [--workers W] [--kills K] [--seed S] [--worker-flag FLAG] [--drain-folder DIR] [--explain] [--out DIR] [--incremental-only]\n".utf8))
            exit(2)
        }
    }
    return options
}

func seconds(_ work: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try work()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// The fastest round: on a shared machine noise only ever adds time.
func best(_ values: [Double]) -> Double { values.min() ?? 0 }

func temporaryDirectory(_ name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("a11y-bench-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func copyTree(_ source: String, to destination: URL) throws {
    try? FileManager.default.removeItem(at: destination)
    try FileManager.default.copyItem(atPath: source, toPath: destination.path)
    // A checkout is scanned some time after it is written. Files written within the scan's
    // racy margin (20 ms) of being read have stamps a later scan cannot believe and reads
    // again; a copy made just before the cold fill would leave most of them so, and the warm
    // round would measure those re-reads rather than a re-scan after an edit.
    Thread.sleep(forTimeInterval: 0.05)
}

/// Runs a child process to completion, discarding its output.
func runChild(_ executable: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}

/// Peak resident memory (KiB) of one `a11y-audit scan` child, from wait4's rusage. The child is
/// started with posix_spawn so that this process, not Foundation, reaps it and gets its usage.
func peakMemoryOfScan(_ binary: String, _ directory: String) throws -> Int {
    let arguments = [binary, "scan", directory, "--format", "json", "--output", "/dev/null", "--fail-on", "none", "--jobs", "2"]
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    guard posix_spawn(&pid, binary, &actions, nil, &argv, environ) == 0 else { return -1 }
    var status: Int32 = 0
    var usage = rusage()
    guard wait4(pid, &status, 0, &usage) == pid else { return -1 }
    return usage.ru_maxrss
}

let options = parseOptions()

/// Runs one pipeline measurement and exits: 0, or 1 with the error on one line (no trap).
func measureAndExit(_ measurement: () throws -> Void) -> Never {
    do {
        try measurement()
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("a11y-audit-bench: \(error)\n".utf8))
        exit(1)
    }
}

if options.only == "queue" {
    measureAndExit { try PipelineBench.queue(rounds: options.rounds) }
}
if options.only == "drain" {
    measureAndExit {
        try QueueDrainBench.run(jobs: options.jobs, workers: options.workers, kills: options.kills, seed: options.seed,
                                workerFlags: options.workerFlags, folder: options.drainFolder)
    }
}
if options.only == "pr" {
    measureAndExit { try PipelineBench.pullRequests(files: options.files, pulls: options.repositories) }
}
if options.only == "render" {
    measureAndExit { try PipelineBench.render(repositories: options.repositories, nights: options.nights) }
}
if options.only == "dashboard-sql" {
    measureAndExit { try ScaleBench.dashboardQueries(rounds: max(options.rounds, 5), explain: options.explain) }
}
if options.only == "sim-night" {
    measureAndExit { try ScaleBench.night(churn: 0.02) }
}
if options.only == "sim-render" {
    measureAndExit { try ScaleBench.render(output: options.out, full: !options.incrementalOnly) }
}
if options.only == "org" {
    measureAndExit { try PipelineBench.organisation(repositories: options.repositories, filesPerRepository: options.files) }
}
if let directory = options.writeCorpus {
    var generator = CorpusGenerator(seed: 42, colorSets: 200)
    _ = try generator.write(to: URL(fileURLWithPath: directory), files: options.files)
    exit(0)
}
let corpusRoot: String
var corpusBytes = 0
if let given = options.corpus {
    corpusRoot = given
} else {
    let directory = try temporaryDirectory("corpus")
    var generator = CorpusGenerator(seed: 42)
    corpusBytes = try generator.write(to: directory, files: options.files).bytes
    corpusRoot = directory.path
}

let input = try ScanInput.directory(corpusRoot, maxFileBytes: 2_000_000)
if corpusBytes == 0 { corpusBytes = input.files.reduce(0) { $0 + $1.size } }
// The baseline parses exactly the Swift files the scanner parses (after its prefilter, test and
// vendored skips), so the ratio compares like with like on real checkouts too.
let parsedPaths = Mutex(Set<String>())
var selection = ScanOptions(jobs: 2)
selection.progress = { event in
    if case .parsedSwift(let path) = event { parsedPaths.withLock { _ = $0.insert(path) } }
}
let probe = try Scanner(options: selection).scan(input, root: corpusRoot)
let selected = parsedPaths.withLock { $0 }
let parsedFiles = input.files.filter { selected.contains($0.path) }
let parsedBytes = parsedFiles.reduce(0) { $0 + $1.size }
let benchRounds = options.rounds
switch options.only {
case "parse":
    for file in parsedFiles { _ = Parser.parse(source: String(decoding: try file.bytes(), as: UTF8.self)) }
    exit(0)
case "scan":
    _ = try Scanner(options: ScanOptions(jobs: 1)).scan(input, root: corpusRoot)
    exit(0)
case "setup":
    exit(0) // what both of the above share, to subtract
case "layout-off":
    // The cold scan with the layout rules off: `scan` minus this is what they cost.
    var config = AuditConfig()
    config.disabled = Set(RuleCatalog.descriptions.filter { $0.category == .layout }.map(\.id))
    _ = try Scanner(options: ScanOptions(config: config, jobs: 1)).scan(input, root: corpusRoot)
    exit(0)
case "warm":
    // Warm re-scans alone, --rounds of them after one cold fill, each after 1% of the parsed
    // files changed: for a profiler (`perf record`), which would otherwise see mostly cold work.
    let corpus = try temporaryDirectory("warm").appendingPathComponent("repo")
    try copyTree(corpusRoot, to: corpus)
    let cache = try temporaryDirectory("warm-cache")
    let warmOptions = ScanOptions(jobs: 2, cacheDirectory: cache.path)
    _ = try Scanner(options: warmOptions).scan(try ScanInput.directory(corpus.path, maxFileBytes: 2_000_000), root: corpus.path)
    let changed = parsedFiles.enumerated().filter { $0.offset % 100 == 0 }.map(\.element.path)
    var times: [Double] = []
    // perf's clock: `perf report --time START,` keeps the warm rounds alone.
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    print("warm rounds start at \(now.tv_sec).\(String(format: "%09d", now.tv_nsec)) (CLOCK_MONOTONIC)")
    for round in 1...max(1, benchRounds) {
        for path in changed {
            let handle = try FileHandle(forWritingTo: corpus.appendingPathComponent(path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("\n// edited in round \(round)\n".utf8))
            try handle.close()
        }
        times.append(try seconds {
            _ = try Scanner(options: warmOptions).scan(try ScanInput.directory(corpus.path, maxFileBytes: 2_000_000), root: corpus.path)
        })
    }
    print("warm re-scans: best \(String(format: "%.3f", times.min() ?? 0)) s, median \(String(format: "%.3f", times.sorted()[times.count / 2])) s over \(times.count)")
    try? FileManager.default.removeItem(at: cache)
    try? FileManager.default.removeItem(at: corpus.deletingLastPathComponent())
    exit(0)
case "colors", "colors-plain", "colors-setup":
    break // measured below, once
case "colors-wall":
    break // the colour rounds alone, timed
default:
    break
}

guard options.only?.hasPrefix("colors") == true || parsedFiles.count > 0 else {
    print("the scanner parsed no Swift files under \(corpusRoot)")
    exit(1)
}

let cacheCorpus = try temporaryDirectory("cached").appendingPathComponent("repo")
guard let formatter = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    .map({ "\($0)/swift-format" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
    print("swift-format is not on PATH; it ships with the Swift toolchain")
    exit(1)
}
let parsedAbsolute = parsedFiles.map { corpusRoot + "/" + $0.path }

var parseOnly: [Double] = [], cold1: [Double] = [], cold2: [Double] = [], coldCached: [Double] = []
var warm: [Double] = [], swiftFormat: [Double] = []
for round in stride(from: 1, through: options.only?.hasPrefix("colors") == true ? 0 : options.rounds, by: 1) {
    FileHandle.standardError.write(Data("round \(round)/\(options.rounds)\n".utf8))
    // Baseline and scan alternate which goes first, so drift on a shared machine hits both alike.
    let measureParse = {
        parseOnly.append(try seconds {
            for file in parsedFiles {
                let text = String(decoding: try file.bytes(), as: UTF8.self)
                _ = Parser.parse(source: text)
            }
        })
    }
    let measureScan = {
        cold1.append(try seconds { _ = try Scanner(options: ScanOptions(jobs: 1)).scan(input, root: corpusRoot) })
    }
    if round % 2 == 0 { try measureParse(); try measureScan() } else { try measureScan(); try measureParse() }
    cold2.append(try seconds { _ = try Scanner(options: ScanOptions(jobs: 2)).scan(input, root: corpusRoot) })

    // Warm re-scan: cold with an empty cache, change 1% of the parsed files, scan again.
    try copyTree(corpusRoot, to: cacheCorpus)
    let cache = try temporaryDirectory("cache")
    let cacheOptions = ScanOptions(jobs: 2, cacheDirectory: cache.path)
    coldCached.append(try seconds {
        _ = try Scanner(options: cacheOptions).scan(try ScanInput.directory(cacheCorpus.path, maxFileBytes: 2_000_000),
                                                    root: cacheCorpus.path)
    })
    let changed = parsedFiles.enumerated().filter { $0.offset % 100 == 0 }.map(\.element.path)
    for path in changed {
        let handle = try FileHandle(forWritingTo: cacheCorpus.appendingPathComponent(path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n// edited in round \(round)\n".utf8))
        try handle.close()
    }
    var warmReport: ScanReport?
    warm.append(try seconds {
        warmReport = try Scanner(options: cacheOptions).scan(try ScanInput.directory(cacheCorpus.path, maxFileBytes: 2_000_000),
                                                             root: cacheCorpus.path)
    })
    if warmReport?.statistics.filesParsed != changed.count {
        print("warm scan parsed \(warmReport?.statistics.filesParsed ?? -1) files, expected \(changed.count)")
        exit(1)
    }
    try? FileManager.default.removeItem(at: cache)

    swiftFormat.append(try seconds { _ = try runChild(formatter, ["lint", "--parallel"] + parsedAbsolute) })
}

// Layout rules: the same files scanned with the layout rules off and with every rule, side by side.
var layoutOff = AuditConfig()
layoutOff.disabled = Set(RuleCatalog.descriptions.filter { $0.category == .layout }.map(\.id))
var withoutLayout: [Double] = [], withLayout: [Double] = []
var layoutFindings = 0
for round in stride(from: 1, through: options.only?.hasPrefix("colors") == true ? 0 : options.rounds, by: 1) {
    let measureOff = {
        withoutLayout.append(try seconds { _ = try Scanner(options: ScanOptions(config: layoutOff, jobs: 1)).scan(input, root: corpusRoot) })
    }
    let measureOn = {
        withLayout.append(try seconds {
            let report = try Scanner(options: ScanOptions(config: AuditConfig(), jobs: 1)).scan(input, root: corpusRoot)
            layoutFindings = report.findings.filter { RuleCatalog.description(of: $0.ruleID)?.category == .layout }.count
        })
    }
    if round % 2 == 0 { try measureOff(); try measureOn() } else { try measureOn(); try measureOff() }
}

// Colour assets: the same Swift files scanned without a catalog and with colour rules off, and
// with 200 colour sets and every rule, side by side.
let colorCorpus = try temporaryDirectory("colors")
var colorGenerator = CorpusGenerator(seed: 42, colorSets: 200)
_ = try colorGenerator.write(to: colorCorpus, files: options.files)
let colorInput = try ScanInput.directory(colorCorpus.path, maxFileBytes: 2_000_000)
var withoutCatalog = colorInput
withoutCatalog.files.removeAll { $0.path.contains(".xcassets/") }
var colorRulesOff = AuditConfig()
colorRulesOff.disabled = Set(RuleCatalog.descriptions.filter { $0.category == .colorAsset }.map(\.id))
if options.only == "colors" {
    _ = try Scanner(options: ScanOptions(config: AuditConfig(), jobs: 1)).scan(colorInput, root: colorCorpus.path)
    exit(0)
}
if options.only == "colors-setup" { exit(0) } // what the two colour runs share, to subtract
if options.only == "colors-plain" {
    _ = try Scanner(options: ScanOptions(config: colorRulesOff, jobs: 1)).scan(withoutCatalog, root: colorCorpus.path)
    exit(0)
}
var plain: [Double] = [], colored: [Double] = []
var colorFindings = 0
for round in 1...options.rounds {
    let measurePlain = {
        plain.append(try seconds {
            _ = try Scanner(options: ScanOptions(config: colorRulesOff, jobs: 1)).scan(withoutCatalog, root: colorCorpus.path)
        })
    }
    let measureColored = {
        colored.append(try seconds {
            let report = try Scanner(options: ScanOptions(config: AuditConfig(), jobs: 1)).scan(colorInput, root: colorCorpus.path)
            colorFindings = report.findings.filter { RuleCatalog.description(of: $0.ruleID)?.category == .colorAsset }.count
        })
    }
    if round % 2 == 0 { try measurePlain(); try measureColored() } else { try measureColored(); try measurePlain() }
}
try? FileManager.default.removeItem(at: colorCorpus)
if options.only == "colors-wall" {
    // Also the median of the per-round ratios (each round runs both, alternating which goes first).
    let ratios = zip(colored, plain).map { $0 / $1 }.sorted()
    print("""
        | scan without catalog, colour rules off, 1 core | \(String(format: "%.3f", best(plain))) | 1.00 | |
        | scan with 200 colour sets, all rules, 1 core | \(String(format: "%.3f", best(colored))) | \(String(format: "%.3f", best(colored) / best(plain)))x | <= 1.10x |
        rounds: \(options.rounds); median of the per-round ratios: \(String(format: "%.3f", ratios[ratios.count / 2]))x
        colour-asset findings in that corpus: \(colorFindings)
        """)
    exit(0)
}

let binary = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).deletingLastPathComponent().appendingPathComponent("a11y-audit").path
var memory: [(files: Int, kib: Int)] = []
if FileManager.default.isExecutableFile(atPath: binary), options.corpus == nil {
    for multiple in [1, 4] {
        let directory = try temporaryDirectory("memory")
        var generator = CorpusGenerator(seed: 7)
        _ = try generator.write(to: directory, files: options.files * multiple)
        memory.append((options.files * multiple, try peakMemoryOfScan(binary, directory.path)))
        try? FileManager.default.removeItem(at: directory)
    }
}

func format(_ value: Double) -> String { String(format: "%.3f", value) }
let p = best(parseOnly), c1 = best(cold1), c2 = best(cold2), cc = best(coldCached), w = best(warm)
let sf = best(swiftFormat)
print("""
    corpus: \(input.files.count) files the scanner reads (\(input.files.filter { $0.path.hasSuffix(".swift") }.count) Swift), \(corpusBytes) bytes; parsed \(parsedFiles.count) files, \(parsedBytes) bytes (\(String(format: "%.0f", Double(parsedBytes) * 100 / Double(max(corpusBytes, 1))))% of bytes)
    rounds: \(options.rounds) (fastest of each); findings: \(probe.findings.count)

    | measurement | seconds | ratio | goal |
    | --- | --- | --- | --- |
    | SwiftParser parse-only, 1 core (baseline) | \(format(p)) | 1.00 | |
    | cold full scan, 1 core | \(format(c1)) | \(String(format: "%.2f", c1 / p))x parse-only | <= 1.30x |
    | cold full scan, 2 cores | \(format(c2)) | \(String(format: "%.2f", c1 / c2))x faster than 1 core | >= 1.70x |
    | cold scan with empty cache, 2 cores | \(format(cc)) | | |
    | warm re-scan after 1% of parsed files changed | \(format(w)) | \(String(format: "%.1f", cc / w))x faster than cold | >= 20x |
    | swift-format lint --parallel, same parsed files | \(format(sf)) | \(String(format: "%.2f", sf / c2))x our 2-core scan time | > 1 (we are faster) |
    | parse throughput, 1 core | | \(String(format: "%.2f", Double(parsedBytes) / p / 1e6)) MB/s | |
    """)
print("""
    | scan without catalog, colour rules off, 1 core | \(format(best(plain))) | 1.00 | |
    | scan with 200 colour sets, all rules, 1 core | \(format(best(colored))) | \(String(format: "%.3f", best(colored) / best(plain)))x | <= 1.10x |
    colour-asset findings in that corpus: \(colorFindings)
    """)
print("""
    | scan with layout rules off, 1 core | \(format(best(withoutLayout))) | 1.00 | |
    | scan with every rule (layout included), 1 core | \(format(best(withLayout))) | \(String(format: "%.3f", best(withLayout) / max(best(withoutLayout), 1e-9)))x | <= 1.05x |
    layout findings in that corpus: \(layoutFindings)
    """)
for entry in memory {
    print("peak RSS of `a11y-audit scan` on \(entry.files) generated files: \(entry.kib / 1024) MiB")
}
