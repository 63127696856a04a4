import DatabaseTestSupport
import Foundation
import Testing

/// Commands and examples written in the Markdown documents, so tests can hold the documents to
/// what the binary does: fenced `sh` blocks, inline `a11y-audit …` code spans, and `json` blocks.
struct MarkdownDocument {
    struct Block {
        let language: String
        let firstLine: Int
        let lines: [String]
        var text: String { lines.joined(separator: "\n") }
    }

    /// A command line as a reader would type it: continuation lines joined, the comment removed.
    struct Command: CustomStringConvertible {
        let file: String
        let line: Int
        let words: [String]
        let inline: Bool
        var description: String { "\(file):\(line): \(words.joined(separator: " "))" }
    }

    let file: String
    let lines: [String]

    init(file: String) throws {
        self.file = file
        lines = try String(contentsOfFile: Deploy.root + "/" + file, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Fenced blocks, with the line number of their first content line.
    var blocks: [Block] {
        var blocks: [Block] = []
        var open: (language: String, start: Int, lines: [String])?
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("```") else { open?.lines.append(line); continue }
            if let current = open {
                blocks.append(Block(language: current.language, firstLine: current.start, lines: current.lines))
                open = nil
            } else {
                open = (String(trimmed.dropFirst(3)), index + 2, [])
            }
        }
        return blocks
    }

    /// The commands of the `sh` blocks (every line), in order.
    var shellCommands: [Command] {
        var commands: [Command] = []
        for block in blocks where block.language == "sh" || block.language == "bash" {
            var pending: (line: Int, text: String)?
            func flush() {
                if let current = pending {
                    let words = Self.stripComment(current.text).split(whereSeparator: \.isWhitespace).map(String.init)
                    if !words.isEmpty { commands.append(Command(file: file, line: current.line, words: words, inline: false)) }
                }
                pending = nil
            }
            for (offset, raw) in block.lines.enumerated() {
                // A line ending in `\`, or an indented line after a command (a usage synopsis), continues it.
                if var current = pending, current.text.hasSuffix("\\") || (raw.first?.isWhitespace == true && !raw.trimmingCharacters(in: .whitespaces).isEmpty) {
                    if current.text.hasSuffix("\\") { current.text.removeLast() }
                    current.text += " " + Self.stripComment(raw)
                    pending = current
                    continue
                }
                flush()
                pending = (block.firstLine + offset, raw)
            }
            flush()
        }
        return commands
    }

    /// Inline code spans outside fenced blocks that start with `a11y-audit `.
    var inlineCommands: [Command] {
        var commands: [Command] = []
        var inBlock = false
        for (index, line) in lines.enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inBlock.toggle(); continue }
            guard !inBlock else { continue }
            for span in line.split(separator: "`", omittingEmptySubsequences: false).enumerated() where span.offset % 2 == 1 {
                let words = span.element.split(whereSeparator: \.isWhitespace).map(String.init)
                if words.count > 1, words[0] == "a11y-audit" { commands.append(Command(file: file, line: index + 1, words: words, inline: true)) }
            }
        }
        return commands
    }

    /// `a11y-audit` commands inside blocks that are not run: a CI job's YAML (`run: a11y-audit …`,
    /// `- a11y-audit …`), a pre-commit hook's (`entry: a11y-audit …`) or a script for Xcode
    /// (`shell`). Lines that start with the command, after YAML's list dash and `run:`,
    /// `script:` or `entry:` key.
    var embeddedCommands: [Command] {
        var commands: [Command] = []
        for block in blocks where block.language != "sh" && block.language != "bash" {
            for (offset, raw) in block.lines.enumerated() {
                var text = Substring(raw.trimmingCharacters(in: .whitespaces))
                if text.hasPrefix("- ") { text = text.dropFirst(2) }
                for key in ["run:", "script:", "entry:"] where text.hasPrefix(key) { text = text.dropFirst(key.count).drop { $0 == " " } }
                guard text.hasPrefix("a11y-audit ") else { continue }
                let words = Self.stripComment(String(text)).split(whereSeparator: \.isWhitespace).map(String.init)
                commands.append(Command(file: file, line: block.firstLine + offset, words: words, inline: false))
            }
        }
        return commands
    }

    /// Every `a11y-audit` command of the document, in blocks (run or not) and inline.
    var auditCommands: [Command] {
        (shellCommands + embeddedCommands + inlineCommands).filter { $0.words.first == "a11y-audit" }
    }

    /// The text before a shell comment (`#` at the start of a word).
    static func stripComment(_ line: String) -> String {
        var result = ""
        var previous: Character = " "
        for character in line {
            if character == "#" && previous.isWhitespace { break }
            result.append(character)
            previous = character
        }
        return result.trimmingCharacters(in: .whitespaces)
    }
}

/// Each subcommand's flags, read from `a11y-audit help`: the synopsis line of the subcommand,
/// its indented continuation lines, and a section titled "<Subcommand> options:".
struct HelpFlags {
    private(set) var flags: [String: Set<String>] = [:]

    init(help: String) {
        var current: String?
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("a11y-audit ") {
                let words = trimmed.split(separator: " ")
                current = String(words[1])
                flags[String(words[1]), default: []].formUnion(Self.flags(in: trimmed))
            } else if trimmed.hasSuffix(" options:") {
                current = trimmed.split(separator: " ").first.map { $0.lowercased() }
            } else if trimmed.isEmpty || (trimmed.hasSuffix(":") && !trimmed.hasPrefix("-")) {
                current = nil
            } else if let current {
                flags[current, default: []].formUnion(Self.flags(in: trimmed))
            }
        }
        // `help` itself prints this text, and every command takes `--help`.
        flags["help", default: []] = []
        for command in flags.keys { flags[command, default: []].insert("--help") }
    }

    static func flags(in text: String) -> Set<String> {
        Set(text.matches(of: /--[a-z][a-z0-9-]*/).map { String($0.output) })
    }

    /// The flags a command line (starting with `a11y-audit`) uses, up to a shell operator.
    static func usedFlags(_ words: [String]) -> [String] {
        var used: [String] = []
        var depth = 0
        for word in words.dropFirst(2) {
            if depth == 0 && ["|", "||", "&&", ";", ">", ">>", "2>", "2>&1", "&"].contains(word) { break }
            depth += word.filter { "[(<".contains($0) }.count - word.filter { "])>".contains($0) }.count
            let bare = word.trimmingCharacters(in: CharacterSet(charactersIn: "[(<"))
            if bare.hasPrefix("--"), let flag = bare.firstMatch(of: /^--[a-z][a-z0-9-]*/) { used.append(String(flag.output)) }
        }
        return used
    }

    /// What is wrong with a command line, if anything: an unknown subcommand or flags its subcommand does not have.
    func problems(_ words: [String]) -> [String] {
        guard words.count > 1, words[0] == "a11y-audit" else { return ["not an a11y-audit command"] }
        guard let known = flags[words[1]] else { return ["unknown subcommand \(words[1])"] }
        return Self.usedFlags(words).filter { !known.contains($0) }.map { "a11y-audit \(words[1]) has no flag \($0)" }
    }
}

/// Running a program in a folder, with standard output and standard error kept apart.
enum Sandbox {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        var output: String { stdout + stderr }
    }

    /// A scratch folder, removed by the caller.
    static func make(_ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `arguments` run in `directory`; killed by coreutils' timeout after `seconds`.
    static func run(_ executable: String, _ arguments: [String], in directory: String, environment: [String: String] = [:],
                    seconds: Int = 120) throws -> Result {
        let out = directory + "/.stdout-\(UUID().uuidString)", err = directory + "/.stderr-\(UUID().uuidString)"
        defer { unlink(out); unlink(err) }
        let pid = try start(executable, arguments, in: directory, environment: environment, stdout: out, stderr: err, seconds: seconds)
        let status = ChildProcess.wait(pid)
        return Result(status: status & 0x7F == 0 ? (status >> 8) & 0xFF : -1,
                      stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }

    /// Starts `executable` in `directory` (through bash's `cd`) under `timeout`, which kills its
    /// whole process group when time is up.
    static func start(_ executable: String, _ arguments: [String], in directory: String, environment: [String: String],
                      stdout: String, stderr: String, seconds: Int) throws -> pid_t {
        try spawn("/bin/bash", ["-c", "cd \"$1\" && shift && exec /usr/bin/timeout \"$@\"", "bash", directory, String(seconds), executable] + arguments,
                  stdout: stdout, stderr: stderr, environment: environment)
    }

    static func spawn(_ executable: String, _ arguments: [String], stdout: String, stderr: String, environment: [String: String]) throws -> pid_t {
        try ChildProcess.spawn(executable, arguments, stdout: stdout, stderr: stderr, environment: environment)
    }

    /// The repository without its build products, local state and version control: what a
    /// newcomer's checkout holds.
    static func copyRepository(to destination: String) throws {
        let skipped: Set<String> = [".build", ".git", ".local", ".swiftpm", ".venv-browser", "site"]
        for entry in try FileManager.default.contentsOfDirectory(atPath: Deploy.root) where !skipped.contains(entry) {
            try FileManager.default.copyItem(atPath: Deploy.root + "/" + entry, toPath: destination + "/" + entry)
        }
    }
}

/// A database URL for one of TestDatabase's databases (the server's URL with `dbname`).
func databaseURL(_ database: TestDatabase) throws -> String {
    guard let server = ProcessInfo.processInfo.environment["DATABASE_URL"], !server.isEmpty else {
        throw DeployFailure("DATABASE_URL is not set: run the tests with Tests/run, which starts a PostgreSQL server")
    }
    if server.hasPrefix("postgres://") || server.hasPrefix("postgresql://") {
        return server + (server.contains("?") ? "&" : "?") + "dbname=" + database.name
    }
    return server + " dbname=" + database.name
}
