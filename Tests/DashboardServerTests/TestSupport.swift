import Foundation

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A site folder in /tmp: the hand-written fixture pages plus the real stylesheet, removed on deinit.
final class SiteFolder {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    let root: String      // the parent, holding files outside the site
    let site: String

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("dashboard-\(UUID().uuidString)").path
        site = root + "/site"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.repositoryRoot + "/Tests/Fixtures/Site", toPath: site)
        try FileManager.default.createDirectory(atPath: site + "/assets", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.repositoryRoot + "/Web/dashboard.css", toPath: site + "/assets/dashboard.css")
    }

    func write(_ relative: String, _ bytes: [UInt8]) throws {
        let path = site + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { throw TestFailure("cannot write \(path)") }
    }

    /// Replaces a file the way the renderer does: a temporary file renamed over it.
    func replaceAtomically(_ relative: String, _ text: String) throws {
        let path = site + "/" + relative
        let temporary = site + "/." + UUID().uuidString + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)), rename(temporary, path) == 0 else {
            throw TestFailure("cannot replace \(path)")
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }
}
