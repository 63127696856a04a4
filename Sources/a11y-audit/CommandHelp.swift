import CommandLineOptions

/// `a11y-audit COMMAND --help` (or `a11y-audit help COMMAND`): printed on standard output, exit 0.
struct HelpRequested: Error {
    let text: String
}

/// Each command's help, cut from the one help text `a11y-audit help` prints (so the two never
/// disagree): the command's synopsis with its indented lines, and its "<Command> options:" section.
enum CommandHelp {
    static let commands = ["scan", "fix", "rules", "version", "help", "migrate", "schedule", "coordinator", "worker", "status",
                           "cancel", "prune", "render", "serve"]

    static var full: String { usage + "\n" + pipelineUsage + "\n" + serveUsage }

    static func text(for command: String) -> String {
        let lines = full.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var picked: [String] = []
        var synopsisIndent: Int?
        var inSection = false
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let indent = line.prefix { $0 == " " }.count
            if trimmed == "a11y-audit \(command)" || trimmed.hasPrefix("a11y-audit \(command) ") {
                synopsisIndent = indent
                picked.append(trimmed)
                continue
            }
            if let base = synopsisIndent {
                if !trimmed.isEmpty, indent > base, !trimmed.hasPrefix("a11y-audit ") {
                    picked.append(String(line.dropFirst(base)))
                    continue
                }
                synopsisIndent = nil
            }
            if trimmed.lowercased() == "\(command) options:" {
                inSection = true
                picked.append("")
                picked.append(trimmed)
                continue
            }
            if inSection {
                if trimmed.isEmpty { inSection = false } else { picked.append(line) }
            }
        }
        guard !picked.isEmpty else { return full }
        return "Usage: " + picked.joined(separator: "\n") + "\n\n`a11y-audit help` lists every command."
    }
}
