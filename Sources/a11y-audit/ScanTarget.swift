import AuditScanner
import Foundation

/// What `scan` was given: a folder or an archive (scanned whole, as before), or files of a
/// repository (positional, or listed by `--paths-from`), reported alone.
enum ScanTarget {
    case directory(String)
    case archive(String)
    case files(FileSelection)

    /// `positional` paths and the list `pathsFrom` names. A single folder, or a single file that
    /// is an archive, is scanned whole; anything else is a list of files. An empty list (a
    /// `git diff` with no changes) is no files, not an error.
    static func choose(positional: [String], pathsFrom: String?) throws -> ScanTarget {
        var paths = positional
        if let pathsFrom { paths += try readPathList(pathsFrom) }
        let fileManager = FileManager.default
        if pathsFrom == nil, let only = positional.first, positional.count == 1 {
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: only, isDirectory: &isDirectory) else { throw ScanError.notFound(only) }
            if isDirectory.boolValue { return .directory(only) }
            if FileSelection.isArchive(only) { return .archive(only) }
        }
        guard !paths.isEmpty else {
            guard pathsFrom != nil else { throw UsageError(description: "scan needs a directory, an archive or files to audit") }
            return .files(FileSelection(root: fileManager.currentDirectoryPath, files: []))
        }
        // Listed paths are files of the repository whatever their kind; a positional archive
        // beside other paths is a mistake to say.
        for path in positional where isRegularFile(path) && FileSelection.isArchive(path) {
            throw ScanError.archiveAmongFiles(path)
        }
        return .files(try FileSelection.resolve(paths, currentDirectory: fileManager.currentDirectoryPath))
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// One path a line (`-`: standard input); blank lines are skipped, `\r\n` ends a line too, and a line Git quoted
    /// (`"caf\303\251.swift"`, as `git diff --name-only` writes unusual names) is unquoted.
    static func readPathList(_ source: String) throws -> [String] {
        let data: Data
        if source == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: source) else { throw ScanError.notFound(source) }
            data = contents
        }
        // `\r\n` is one Character: splitting on newlines takes Windows line ends too.
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { line in
            line.allSatisfy(\.isWhitespace) ? nil : unquoteGitPath(String(line))
        }
    }

    /// Git's C-style quoting of a path: `\\`, `\"`, `\t`, `\n` and octal bytes. A line that
    /// does not start and end with a quote is the path itself.
    static func unquoteGitPath(_ line: String) -> String {
        let bytes = Array(line.utf8)
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else { return line }
        var result: [UInt8] = []
        var index = 1
        while index < bytes.count - 1 {
            let byte = bytes[index]
            index += 1
            guard byte == UInt8(ascii: "\\"), index < bytes.count - 1 else { result.append(byte); continue }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "t"): result.append(0x09)
            case UInt8(ascii: "n"): result.append(0x0A)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = Int(escaped - UInt8(ascii: "0"))
                for _ in 0..<2 where index < bytes.count - 1 && (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index]) {
                    value = value * 8 + Int(bytes[index] - UInt8(ascii: "0"))
                    index += 1
                }
                result.append(UInt8(truncatingIfNeeded: value))
            default: result.append(escaped)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
