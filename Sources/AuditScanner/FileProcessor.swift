import AuditModel
import Foundation
import SwiftChecks

struct FileOutcome: Sendable {
    enum Status: Sendable {
        /// `parsedBytes` is nil when the result came from the cache.
        case checked(FileResult, parsedBytes: Int?)
        case withoutUIImport(imports: Set<String>)
        case generated
        case unreadable
        /// Imports a test framework: test target code, not shipped UI.
        case testCode
    }
    var status: Status
    var notes: [ScanNote] = []
    /// Modules this file's module re-exports a UI framework as (`@_exported import UIKit`).
    var reexportedModules: [String] = []
}

/// Reads, prefilters, and checks one file. Runs on a Dispatch worker.
enum FileProcessor {
    /// `componentFacts`: the second look at a file that shows views of the app's own whose
    /// behaviour other files settle (`ProjectContext.componentFacts`), cached under them.
    static func process(_ file: InputFile, checker: SourceChecker, documentChecker: DocumentChecker, project: ProjectIndex,
                        cache: ScanCache?, reexporting: Set<String>, componentFacts: Set<String> = [],
                        facts table: FileFactsTable? = nil) -> FileOutcome {
        if DocumentChecker.handles(file.path) {
            let bytes: [UInt8]
            do { bytes = try file.bytes() } catch {
                return FileOutcome(status: .unreadable, notes: [ScanNote(kind: .skipped, file: file.path, message: "\(error)")])
            }
            return processInterfaceBuilder(file, bytes, documentChecker, project, cache)
        }
        let factsDigest = componentFacts.isEmpty ? "" : "-" + Digest.sha256Hex(componentFacts.sorted().joined(separator: "\n"))
        let contextDigest = project.digest(for: file.path) + factsDigest
        // A warm scan's common case: the file's stamp says these are the bytes read before, and
        // they were checked before under the same config and project context (only files that
        // import a UI framework themselves, or declare a UI type, are cached), or their header
        // alone decides that they are not UI code. Nothing is read.
        if let known = table?.known(file), !known.hasNUL, known.isValidUTF8 {
            if let cache, !known.sha256.isEmpty, let cached = cache.load(cache.key(path: file.path, contentHash: known.sha256, contextDigest: contextDigest)) {
                return FileOutcome(status: .checked(cached, parsedBytes: nil),
                                   reexportedModules: known.reexportsUI ? [ProjectIndex.moduleName(of: file.path)] : [])
            }
            if let decided = headerOutcome(known, file, checker, reexporting) { return decided }
        }
        let readAt = FileFactsTable.now()
        let bytes: [UInt8]
        do { bytes = try file.bytes() } catch {
            return FileOutcome(status: .unreadable, notes: [ScanNote(kind: .skipped, file: file.path, message: "\(error)")])
        }
        let facts = FileFacts(bytes, hashing: cache != nil)
        table?.record(file, facts: facts, readAt: readAt)
        if facts.hasNUL {
            return FileOutcome(status: .unreadable,
                               notes: [ScanNote(kind: .skipped, file: file.path, message: "binary content (NUL bytes) in a .swift file")])
        }
        let key = cache?.key(path: file.path, contentHash: facts.sha256, contextDigest: contextDigest)
        if let cache, let key, let cached = cache.load(key) {
            return FileOutcome(status: .checked(cached, parsedBytes: nil),
                               reexportedModules: facts.reexportsUI ? [ProjectIndex.moduleName(of: file.path)] : [])
        }
        guard let source = String(validating: bytes, as: UTF8.self) else {
            return FileOutcome(status: .unreadable,
                               notes: [ScanNote(kind: .skipped, file: file.path, message: "not valid UTF-8; Swift source must be UTF-8")])
        }
        if let decided = headerOutcome(facts, file, checker, reexporting) { return decided }
        let header = facts.header
        let reexported = header.exportedUIModules.isEmpty ? [] : [ProjectIndex.moduleName(of: file.path)]
        let importsUI = !header.imports.isDisjoint(with: Scanner.uiModules)
        // A file checked only because another module re-exports UIKit is not cached: that
        // module may stop re-exporting while this file stays the same. One that declares a UI
        // type is decided by its own bytes, as an importing one is.
        return checkCached(file, bytes, project, importsUI || facts.declaresUIType ? cache : nil, key: key, reexported: reexported) {
            var context = project.context(for: file.path)
            context.componentFacts = componentFacts
            return checker.check(path: file.path, source: source, context: context, parsed: project.parsedSources.take(file.path))
        }
    }

    /// What the header alone decides: generated code, test code, or a file that is not UI code
    /// (remembered with its imports, in case another module re-exports a UI framework). Nil:
    /// the file must be checked.
    private static func headerOutcome(_ facts: FileFacts, _ file: InputFile, _ checker: SourceChecker,
                                      _ reexporting: Set<String>) -> FileOutcome? {
        let header = facts.header
        if header.looksGenerated { return FileOutcome(status: .generated) }
        if !checker.config.includeNonShipping, !header.imports.isDisjoint(with: Scanner.testModules) {
            return FileOutcome(status: .testCode)
        }
        let reexported = header.exportedUIModules.isEmpty ? [] : [ProjectIndex.moduleName(of: file.path)]
        // A module the file imports may import UIKit itself, and Swift lets its importers see
        // UIKit's names: a file subclassing `UITableViewController` with only `import AppSDK`
        // is UI code all the same.
        let importsUI = !header.imports.isDisjoint(with: Scanner.uiModules)
        guard importsUI || facts.declaresUIType || !header.imports.isDisjoint(with: reexporting) else {
            return FileOutcome(status: .withoutUIImport(imports: header.imports), reexportedModules: reexported)
        }
        return nil
    }

    /// Whether the file declares a type inheriting from a UIKit or AppKit view or controller
    /// (`: UITableViewController`, `, NSTableCellView`) or conforming to SwiftUI's `View`:
    /// a byte scan for the inherited name after `:` or `,`.
    static func declaresUIType(_ bytes: [UInt8]) -> Bool {
        var found = false
        for pattern in uiTypePatterns where !found {
            pattern.forEachMatch(in: bytes) { end in
                // The needle ends inside the name (`UI`, `NS`, `View`): back up to its start.
                let start = end - (pattern.needle.count - 2)
                var stop = start
                while stop < bytes.count, stop - start < 64, Scanner.isIdentifierByte(bytes[stop]) { stop += 1 }
                let name = bytes[start..<stop]
                if name.elementsEqual("View".utf8) {
                    found = stop < bytes.count && (bytes[stop] == UInt8(ascii: " ") || bytes[stop] == UInt8(ascii: "{"))
                } else if name.count > 4, (0x41...0x5A).contains(name[name.startIndex + 2]) {
                    found = uiTypeSuffixes.contains { suffix in name.count >= suffix.count && name.suffix(suffix.count).elementsEqual(suffix) }
                }
                return found ? bytes.count : stop
            }
        }
        return found
    }

    private static let uiTypePatterns = [": UI", ", UI", ": NS", ", NS", ": View"].map(BytePattern.init)
    private static let uiTypeSuffixes = ["View", "Controller", "Button", "Label", "Cell", "Field", "Control", "Window", "Switch", "Slider"]
        .map { Array($0.utf8) }

    /// The file's cached result, or `check()` run and its result cached. A file the checker
    /// refused whole (a Swift shape the parser cannot take, an unreadable document) is a skipped
    /// file with its notes, and is not cached: refusing it again costs less than a lookup.
    private static func checkCached(_ file: InputFile, _ bytes: [UInt8], _ project: ProjectIndex, _ cache: ScanCache?,
                                    key known: String? = nil, reexported: [String] = [], check: () -> FileResult) -> FileOutcome {
        let key = known ?? cache?.key(path: file.path, contentHash: Digest.sha256Hex(bytes), contextDigest: project.digest(for: file.path))
        if let cache, let key, let cached = cache.load(key) {
            return FileOutcome(status: .checked(cached, parsedBytes: nil), reexportedModules: reexported)
        }
        let result = check()
        if result.findings.isEmpty, result.notes.contains(where: { $0.kind == .skipped }) {
            return FileOutcome(status: .unreadable, notes: result.notes, reexportedModules: reexported)
        }
        if let cache, let key { cache.store(result, for: key) }
        return FileOutcome(status: .checked(result, parsedBytes: bytes.count), reexportedModules: reexported)
    }
}

extension FileProcessor {
    /// A storyboard or xib: parsed once into the document model, checked by the document rules,
    /// cached like a Swift file. One that cannot be read is a note, and the scan goes on.
    static func processInterfaceBuilder(_ file: InputFile, _ bytes: [UInt8], _ checker: DocumentChecker,
                                        _ project: ProjectIndex, _ cache: ScanCache?) -> FileOutcome {
        checkCached(file, bytes, project, cache) {
            checker.check(path: file.path, bytes: bytes, context: project.context(for: file.path))
        }
    }
}

/// A byte-level look at a file's imports and header, before any parsing: most of a large app's
/// Swift is models and networking that no UI rule can flag, and parsing is the cost floor.
enum ImportScanner {
    struct Header: Sendable, Equatable {
        var imports: Set<String> = []
        /// Imported outside any `#if`: the file builds only where these modules exist.
        var unguardedImports: Set<String> = []
        var exportedUIModules: Set<String> = []
        var looksGenerated = false

        /// AppKit (or Cocoa) imported outside any `#if`: the file, and its target, build for the Mac alone.
        var buildsOnlyForTheMac: Bool { unguardedImports.contains("AppKit") || unguardedImports.contains("Cocoa") }
    }

    private static let generatedMarkers = ["generated by", "autogenerated", "auto-generated", "do not edit", "@generated"]
        .map { Array($0.utf8) }

    /// Whether `@_exported` occurs anywhere: only then can the file re-export a UI framework.
    static func mayReexport(_ bytes: [UInt8]) -> Bool { ProjectFiles.occurs(exportedAttribute, in: bytes) }
    private static let exportedAttribute = Array("@_exported".utf8)

    static func scan(_ bytes: [UInt8]) -> Header {
        var header = Header()
        // A UTF-8 byte-order mark is not part of the first line's text.
        var lineStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var lineNumber = 0
        var conditionDepth = 0
        let count = bytes.count
        while lineStart < count {
            let lineEnd = nextNewline(in: bytes, from: lineStart)
            lineNumber += 1
            var index = lineStart
            while index < lineEnd, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
            if lineNumber <= 10, index + 1 < lineEnd, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") {
                let comment = bytes[index..<lineEnd].map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }
                if generatedMarkers.contains(where: { ProjectFiles.occurs($0, in: comment) }) { header.looksGenerated = true }
            }
            if index < lineEnd, isImportLine(bytes, index, lineEnd) {
                let before = header.imports
                parseImport(bytes[index..<lineEnd], into: &header)
                if conditionDepth == 0 { header.unguardedImports.formUnion(header.imports.subtracting(before)) }
            } else if index + 2 < lineEnd, bytes[index] == UInt8(ascii: "#") {
                let directive = bytes[(index + 1)..<lineEnd]
                if directive.starts(with: Array("if".utf8)), directive.count == 2 || [0x20, 0x09, 0x28].contains(directive[directive.startIndex + 2]) {
                    conditionDepth += 1
                } else if directive.starts(with: Array("endif".utf8)) {
                    conditionDepth = max(0, conditionDepth - 1)
                }
            }
            lineStart = lineEnd + 1
        }
        return header
    }

    /// Where the line starting at `start` ends: every byte of every file without UI imports
    /// passes here on each scan.
    private static func nextNewline(in bytes: [UInt8], from start: Int) -> Int {
        ByteSearch.next(UInt8(ascii: "\n"), in: bytes[start...])
    }

    private static let importWord = Array("import".utf8)

    /// A line that can hold an import: `import …`, or attributes before one (`@_exported import`);
    /// not the `if`, `init` and `@State` lines that start the same way.
    private static func isImportLine(_ bytes: [UInt8], _ start: Int, _ end: Int) -> Bool {
        let line = bytes[start..<end]
        if line.starts(with: importWord) {
            return line.count > importWord.count && [0x20, 0x09].contains(line[start + importWord.count])
        }
        guard bytes[start] == UInt8(ascii: "@") else { return false }
        return line.withContiguousStorageIfAvailable { line in importWord.withUnsafeBufferPointer { ASCII.occurs($0, in: line) } } ?? true
    }

    /// `@_exported import UIKit`, `@preconcurrency import struct SwiftUI.Color`, `import UIKit`.
    private static func parseImport(_ line: ArraySlice<UInt8>, into header: inout Header) {
        let words = line.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") })
            .map { String(decoding: $0, as: UTF8.self) }
        var exported = false
        var index = 0
        while index < words.count, words[index].hasPrefix("@") {
            if words[index] == "@_exported" { exported = true }
            index += 1
        }
        guard index < words.count, words[index] == "import" else { return }
        index += 1
        let kinds: Set<String> = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"]
        if index < words.count, kinds.contains(words[index]) { index += 1 }
        guard index < words.count else { return }
        let module = String(words[index].prefix { $0 != "." && $0 != ";" })
        header.imports.insert(module)
        if exported, Scanner.uiModules.contains(module) { header.exportedUIModules.insert(module) }
    }
}
