import AuditModel
import Foundation
import SwiftChecks

/// Content-addressed per-file results: (tool build, config, project context, path, content)
/// → that file's findings. A warm re-scan parses only the files that changed.
struct ScanCache: Sendable {
    let directory: String
    let configDigest: String

    init(directory: String, configDigest: String) {
        self.directory = directory
        self.configDigest = configDigest
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func key(path: String, bytes: [UInt8], context: ProjectContext, contextDigest: String) -> String {
        let content = Digest.sha256Hex(bytes)
        return Digest.sha256Hex([ToolIdentity.digest, configDigest, contextDigest, path, content].joined(separator: "\u{0}"))
    }

    func load(_ key: String) -> FileResult? {
        guard let data = FileManager.default.contents(atPath: file(for: key)) else { return nil }
        // A corrupt entry is a miss, not an error: the file is simply checked again.
        return try? JSONDecoder().decode(FileResult.self, from: data)
    }

    /// Written to a temporary name and renamed, so a reader never sees half an entry.
    func store(_ result: FileResult, for key: String) {
        guard let data = try? JSONEncoder().encode(result) else { return }
        let target = file(for: key)
        let temporary = target + ".\(UUID().uuidString).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data) else { return }
        if rename(temporary, target) != 0 { unlink(temporary) }
    }

    private func file(for key: String) -> String { directory + "/" + key + ".json" }
}

/// Identifies this build of the tool, so a cache never serves results of older rules.
enum ToolIdentity {
    static let digest: String = {
        if let data = FileManager.default.contents(atPath: "/proc/self/exe") {
            return Digest.sha256Hex([UInt8](data))
        }
        return Scanner.toolVersion + "-" + RuleCatalog.allRuleIDs.joined(separator: ",")
    }()
}
