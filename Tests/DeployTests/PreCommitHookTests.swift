import Foundation
import Testing

/// The `.pre-commit-hooks.yaml` this repository ships and the `.pre-commit-config.yaml` files
/// the user guide shows, held to pre-commit's manifest keys, to `a11y-audit help`, and to what
/// the hook does when pre-commit runs it: its entry and args, then the staged files.
struct PreCommitHookTests {
    /// The YAML files as JSON, read by Debian's python3-yaml.
    static func yaml(_ texts: [String]) throws -> [Any] {
        let scratch = try Sandbox.make("pre-commit-yaml")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var paths: [String] = []
        for (index, text) in texts.enumerated() {
            paths.append(scratch + "/\(index).yaml")
            try text.write(toFile: paths[index], atomically: true, encoding: .utf8)
        }
        let program = "import json, sys, yaml; json.dump([yaml.safe_load(open(p)) for p in sys.argv[1:]], sys.stdout)"
        let result = try Sandbox.run("/usr/bin/python3", ["-c", program] + paths, in: scratch)
        guard result.status == 0, let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [Any] else {
            throw DeployFailure("python3 could not read the YAML (status \(result.status)): \(result.stderr)")
        }
        return parsed
    }

    static func words(_ value: Any?) -> [String] { (value as? String)?.split(separator: " ").map(String.init) ?? [] }

    @Test func theManifestDeclaresAHookPreCommitCanRunOnTheFilesTheScanChecks() throws {
        let text = try String(contentsOfFile: Deploy.root + "/.pre-commit-hooks.yaml", encoding: .utf8)
        let hooks = try #require(try Self.yaml([text]).first as? [[String: Any]], "the manifest is a list of hooks")
        let hook = try #require(hooks.first { $0["id"] as? String == "a11y-audit" })
        // pre-commit's required keys, and only keys its manifest schema knows.
        for key in ["id", "name", "entry", "language"] { #expect(hook[key] is String, "no \(key)") }
        let known: Set<String> = ["id", "name", "entry", "language", "files", "exclude", "types", "types_or", "exclude_types",
                                  "always_run", "fail_fast", "verbose", "pass_filenames", "require_serial", "description",
                                  "language_version", "minimum_pre_commit_version", "args", "stages"]
        #expect(Set(hook.keys).isSubset(of: known), "\(Set(hook.keys).subtracting(known))")
        #expect(["system", "script"].contains(hook["language"] as? String ?? ""))
        #expect(hook["pass_filenames"] as? Bool ?? true, "the staged files must be passed")
        let entry = Self.words(hook["entry"])
        #expect(Array(entry.prefix(2)) == ["a11y-audit", "scan"])
        let help = HelpFlags(help: try Deploy.help())
        #expect(help.problems(entry).isEmpty, "\(help.problems(entry))")

        let files = try NSRegularExpression(pattern: try #require(hook["files"] as? String))
        func selected(_ path: String) -> Bool { files.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil }
        for path in ["App/View.swift", "App/Base.lproj/Main.storyboard", "App/Cell.xib", "App/Assets.xcassets/Brand.colorset/Contents.json"] {
            #expect(selected(path), "\(path) is not passed to the hook")
        }
        for path in ["README.md", "App/Assets.xcassets/Contents.json", "App/View.swift.orig", "Package.resolved"] {
            #expect(!selected(path), "\(path) is passed to the hook")
        }
    }

    /// As pre-commit runs it: the entry, the guide's args, then the staged files, from the top of
    /// the repository; an error-level violation in a staged file fails the commit.
    @Test func theHookAndTheGuidesConfigsRunAsPreCommitRunsThem() throws {
        let text = try String(contentsOfFile: Deploy.root + "/.pre-commit-hooks.yaml", encoding: .utf8)
        let manifest = try #require(try Self.yaml([text]).first as? [[String: Any]])
        let entry = Self.words(manifest.first?["entry"])
        let configs = try MarkdownDocument(file: "docs/user-guide.md").blocks.filter { $0.language == "yaml" && $0.text.contains("repos:") }
        #expect(configs.count >= 2, "the guide shows a .pre-commit-config.yaml")
        let help = HelpFlags(help: try Deploy.help())
        var hooks: [[String: Any]] = []
        for config in try Self.yaml(configs.map(\.text)) {
            for repository in (config as? [String: Any])?["repos"] as? [[String: Any]] ?? [] {
                hooks += (repository["hooks"] as? [[String: Any]] ?? []).filter { $0["id"] as? String == "a11y-audit" }
            }
        }
        #expect(hooks.count == configs.count, "each config has the a11y-audit hook")

        let sandbox = try Sandbox.make("pre-commit")
        defer { try? FileManager.default.removeItem(atPath: sandbox) }
        try FileManager.default.copyItem(atPath: Docs.sampleApp, toPath: sandbox + "/app")
        try FileManager.default.createDirectory(atPath: sandbox + "/app/.git", withIntermediateDirectories: true)
        for hook in hooks {
            // A local hook's own entry, else the manifest's; args come after it, then the files.
            let command = (hook["entry"] == nil ? entry : Self.words(hook["entry"])) + (hook["args"] as? [String] ?? [])
            #expect(help.problems(command).isEmpty, "\(help.problems(command))")
            let failing = try Sandbox.run(Deploy.executable, Array(command.dropFirst()) + ["Shared/CheckoutView.swift", "Shared/OrderRow.swift"],
                                          in: sandbox + "/app")
            #expect(failing.status == 1 && failing.stdout.contains("Shared/CheckoutView.swift") && failing.stdout.contains("error"),
                    "\(command): exit \(failing.status)\n\(failing.output)")
            let passing = try Sandbox.run(Deploy.executable, Array(command.dropFirst()) + ["Shared/OrderRow.swift"], in: sandbox + "/app")
            #expect(passing.status == 0, "\(command): exit \(passing.status)\n\(passing.output)")
        }
    }
}
