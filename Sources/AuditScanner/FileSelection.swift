import AuditModel
import Foundation
import SwiftChecks

/// Files to report on, rather than a whole folder (`scan View.swift Main.storyboard`, a
/// pre-commit hook's staged files, `git diff --name-only`). The scan still reads the whole
/// repository holding them: platforms, catalogs and the app model (whether a type is ever
/// shown, a property ever read) come from every file, so a file's findings are the same as in a
/// scan of the repository. Only what is reported is narrowed.
public struct FileSelection: Sendable, Equatable {
    /// The repository holding the files, absolute: the folder the scan reads.
    public let root: String
    /// The files to report, relative to `root`, sorted, of the kinds the scan checks.
    public let files: [String]
    /// Files given of other kinds (a README, a Package.resolved), relative to `root`: noted, not checked.
    public let ignored: [String]

    public init(root: String, files: [String], ignored: [String] = []) {
        self.root = root
        self.files = Array(Set(files)).sorted()
        self.ignored = Array(Set(ignored)).sorted()
    }

    /// The files `paths` name (relative to `currentDirectory`, or absolute) in the repository
    /// holding them: the nearest folder above them with a `.git`, else the nearest with an
    /// `.xcodeproj` or a `Package.swift`, else the folder they share.
    public static func resolve(_ paths: [String], currentDirectory: String) throws -> FileSelection {
        let fileManager = FileManager.default
        let base = URL(fileURLWithPath: currentDirectory, isDirectory: true)
        var absolute: [(given: String, path: String)] = []
        var missing: [String] = [], folders: [String] = []
        for given in paths {
            let path = URL(fileURLWithPath: given, relativeTo: base).standardizedFileURL.path
            var isDirectory: ObjCBool = false
            if !fileManager.fileExists(atPath: path, isDirectory: &isDirectory) {
                missing.append(given)
            } else if isDirectory.boolValue {
                folders.append(given)
            } else {
                absolute.append((given, path))
            }
        }
        if !missing.isEmpty { throw ScanError.missingFiles(missing) }
        if let folder = folders.first { throw ScanError.folderAmongFiles(folder) }
        guard !absolute.isEmpty else { throw ScanError.noFiles }
        let root = try repositoryRoot(of: absolute)
        var files: [String] = [], ignored: [String] = []
        for (_, path) in absolute {
            let relative = String(path.dropFirst(root == "/" ? 1 : root.count + 1))
            if isReportable(relative) { files.append(relative) } else { ignored.append(relative) }
        }
        return FileSelection(root: root, files: files, ignored: ignored)
    }

    /// The kinds of file findings are reported in: Swift sources, storyboards and xibs, and a
    /// colour set's `Contents.json` (where the catalog rules report).
    public static func isReportable(_ path: String) -> Bool {
        path.hasSuffix(".swift") || DocumentChecker.handles(path)
            || (path.hasSuffix(".colorset/Contents.json") && ASCII.contains(path, ".xcassets/"))
    }

    /// One root for every file: the outermost of their repositories when those nest (a
    /// submodule's file and its superproject's), else an error naming two that do not.
    static func repositoryRoot(of files: [(given: String, path: String)]) throws -> String {
        let found = files.map { file in (file.given, enclosingRoot(of: ProjectIndex.directory(of: file.path))) }
        if found.allSatisfy({ $0.1 == nil }) { return commonFolder(files.map { ProjectIndex.directory(of: $0.path) }) }
        let roots = found.compactMap(\.1)
        let outermost = roots.min { $0.count < $1.count } ?? "/"
        for (given, root) in found where root.map({ !isInside($0, outermost) }) ?? true {
            throw ScanError.filesInSeveralRepositories(first: found.first { $0.1 == outermost }?.0 ?? given, second: given)
        }
        return outermost
    }

    /// The nearest folder at or above `directory` holding `.git` (a folder, or a worktree's or
    /// submodule's file), else the nearest holding an Xcode project or a `Package.swift`.
    static func enclosingRoot(of directory: String) -> String? {
        let fileManager = FileManager.default
        let folders = Array(sequence(first: directory) { $0 == "/" || $0.isEmpty ? nil : parent(of: $0) })
        if let repository = folders.first(where: { fileManager.fileExists(atPath: $0 + "/.git") }) { return repository }
        return folders.first { folder in
            fileManager.fileExists(atPath: folder + "/Package.swift")
                || ((try? fileManager.contentsOfDirectory(atPath: folder)) ?? []).contains { $0.hasSuffix(".xcodeproj") }
        }
    }

    static func parent(of folder: String) -> String {
        let directory = ProjectIndex.directory(of: folder)
        return directory.isEmpty ? "/" : directory
    }

    static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || folder == "/" || path.hasPrefix(folder + "/")
    }

    static func commonFolder(_ folders: [String]) -> String {
        var common = folders.first ?? "/"
        while !folders.allSatisfy({ isInside($0, common) }) { common = parent(of: common) }
        return common
    }
}

extension FileSelection {
    /// Whether `path` names an archive to scan whole rather than a file of a repository: by its
    /// name (`.tar.gz`, `.zip`, …), or by the first bytes of a gzip, bzip2, xz, zstd, zip or tar.
    public static func isArchive(_ path: String) -> Bool {
        let lowered = path.lowercased()
        if archiveSuffixes.contains(where: lowered.hasSuffix) { return true }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = Array((try? handle.read(upToCount: 512)) ?? Data())
        if archiveMagics.contains(where: { head.starts(with: $0) }) { return true }
        // A tar's header says `ustar` at offset 257.
        return head.count >= 262 && head[257..<262].elementsEqual("ustar".utf8)
    }

    static let archiveSuffixes = [".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz", ".tar.zst", ".tzst", ".zip"]
    static let archiveMagics: [[UInt8]] = [
        [0x1F, 0x8B], Array("BZh".utf8), [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], [0x28, 0xB5, 0x2F, 0xFD], [0x50, 0x4B, 0x03, 0x04],
    ]
}

extension Scanner {
    /// A scan of a selection that holds no file of a kind the scan checks: nothing is read.
    static func reportOfNothingToCheck(_ selection: FileSelection, root: String) -> ScanReport {
        ScanReport(root: root, rootIsArchive: false, findings: [], notes: ignoredNotes(selection), statistics: ScanStatistics(),
                   toolVersion: toolVersion, reportedFiles: [])
    }

    static func ignoredNotes(_ selection: FileSelection) -> [ScanNote] {
        selection.ignored.map { path in
            ScanNote(kind: .skipped, file: path, message: "ignored: a11y-audit checks Swift files, storyboards, xibs and colour sets")
        }
    }

    /// The findings and notes of the selected files, with why a selected file was not checked
    /// where a whole-folder scan would only count it; notes about project files (a project too
    /// large to read) stay, as they bear on every file.
    static func narrow(_ findings: inout [Finding], _ notes: inout [ScanNote], to selection: FileSelection, input: ScanInput,
                       candidates: [InputFile], outcomes: [FileOutcome], configs: ConfigTree) {
        let wanted = Set(selection.files)
        findings.removeAll { !wanted.contains($0.location.file) }
        notes.removeAll { note in !wanted.contains(note.file) && (FileSelection.isReportable(note.file) || note.kind == .summary) }
        var sizes: [String: Int] = [:]
        for file in input.files + input.oversized.map(\.placeholder) { sizes[file.path] = file.size }
        let statuses = Dictionary(zip(candidates.map(\.path), outcomes.map(\.status))) { first, _ in first }
        for path in selection.files {
            let why: String?
            if sizes[path] == nil {
                why = "not read: the scan of the repository does not reach it (it is under .git or .build, or behind a link leaving the folder)"
            } else if let status = statuses[path] {
                switch status {
                case .withoutUIImport: why = "not checked: it imports none of \(uiModules.sorted().joined(separator: ", ")), nor a module that re-exports one"
                case .generated: why = "not checked: its header says it is generated"
                case .testCode: why = "not checked: it imports a test framework (test code is not shipped UI); \"includeNonShipping\": true checks it"
                case .checked, .unreadable: why = nil  // checked, or a note says why not
                }
            } else if let reason = skipReason(path, configs) {
                why = "not checked: " + reason.explanation
            } else if path.hasSuffix(".colorset/Contents.json") || sizes[path, default: 0] > configs.maxFileBytes {
                why = nil  // a colour set is checked with its catalog; an oversized file has its note
            } else {
                why = "not checked: no target of the repository's Xcode projects or packages builds it, or only test targets do"
            }
            if let why { notes.append(ScanNote(kind: .skipped, file: path, message: why)) }
        }
        notes += ignoredNotes(selection)
        let count = selection.files.count
        notes.append(ScanNote(kind: .summary, file: ".", message: "only the \(count) file\(count == 1 ? "" : "s") given \(count == 1 ? "is" : "are") reported; "
            + "the repository's other files were read for its platforms, catalogs and app model, and their findings left out"))
    }
}

extension Scanner.SkipReason {
    /// Why a file of this reason is not checked, and what would check it.
    var explanation: String {
        switch self {
        case .excluded: "\"exclude\" in \(AuditConfig.fileName) leaves it out"
        case .vendored: "it is vendored or generated code (Pods/, Carthage/, .build/, SourcePackages/, *.pb.swift, *.generated.swift, *.xcloc); \"include\" patterns or \"skipVendored\": false check it"
        case .test: "it is in a test target's folder or named as a test (not shipped UI); \"includeNonShipping\": true checks it"
        case .debugScreen: "it is a debug screen (a Debug folder, or a screen named with Debug: not shipped UI); \"includeNonShipping\": true checks it"
        case .example: "it is in an example or demo app (a library's sample, not the product); \"includeNonShipping\": true checks it"
        }
    }
}
