import AuditModel
import Foundation
import Synchronization
import SwiftChecks

/// Where cache entries live: a directory for `scan --cache`, or memory filled from and flushed
/// to PostgreSQL by the worker.
public protocol ScanCacheStorage: Sendable {
    /// Identifies the build whose entries this storage serves. Entries of another build never
    /// match, so changed rules never serve stale findings.
    var toolIdentity: String { get }
    func entry(forKey key: String) -> [UInt8]?
    func store(_ entry: [UInt8], forKey key: String)
}

/// One file per entry in a directory, for one machine.
public struct DirectoryCacheStorage: ScanCacheStorage {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    public var toolIdentity: String { ToolIdentity.digest }

    public func entry(forKey key: String) -> [UInt8]? {
        // A missing or corrupt entry is a miss, not an error: the file is simply checked again.
        try? FileBytes.contents(of: file(for: key))
    }

    /// Written to a temporary name and renamed, so a reader never sees half an entry.
    public func store(_ entry: [UInt8], forKey key: String) {
        let target = file(for: key)
        let temporary = target + ".\(UUID().uuidString).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(entry)) else { return }
        if rename(temporary, target) != 0 { unlink(temporary) }
    }

    private func file(for key: String) -> String { directory + "/" + key + ".entry" }
}

/// Entries held in memory: loaded in bulk before a scan, and the new ones read back after it
/// (the worker keeps them in PostgreSQL, shared by every worker machine).
public final class MemoryCacheStorage: ScanCacheStorage {
    private struct State {
        var entries: [String: [UInt8]]
        var added: [String: [UInt8]] = [:]
        var hits: Set<String> = []
    }
    private let state: Mutex<State>
    public let toolIdentity: String

    /// `toolIdentity` must be the same on every machine running this build: the worker uses
    /// `ToolIdentity.contentDigest`, a hash of the executable.
    public init(entries: [String: [UInt8]], toolIdentity: String = ToolIdentity.contentDigest) {
        state = Mutex(State(entries: entries))
        self.toolIdentity = toolIdentity
    }

    public func entry(forKey key: String) -> [UInt8]? {
        state.withLock { state in
            let entry = state.entries[key]
            if entry != nil { state.hits.insert(key) }
            return entry
        }
    }

    public func store(_ entry: [UInt8], forKey key: String) {
        state.withLock { state in
            state.entries[key] = entry
            state.added[key] = entry
        }
    }

    /// Everything held, loaded or stored (what an isolated scan hands its child).
    public var allEntries: [String: [UInt8]] { state.withLock { $0.entries } }
    /// Entries stored since the storage was made.
    public var newEntries: [String: [UInt8]] { state.withLock { $0.added } }
    /// Keys of loaded entries that the scan used.
    public var usedKeys: Set<String> { state.withLock { $0.hits } }

    /// Takes in what a scan elsewhere (an isolated child) stored and used.
    public func merge(stored: [String: [UInt8]], used: Set<String>) {
        state.withLock { state in
            for (key, entry) in stored {
                state.entries[key] = entry
                state.added[key] = entry
            }
            state.hits.formUnion(used.filter { state.entries[$0] != nil })
        }
    }
}

/// Content-addressed per-file results: (tool build, config, project context, path, content)
/// → that file's findings. A warm re-scan parses only the files that changed.
struct ScanCache: Sendable {
    let storage: any ScanCacheStorage
    let configDigest: String

    init(storage: any ScanCacheStorage, configDigest: String) {
        self.storage = storage
        self.configDigest = configDigest
    }

    /// `contentHash`: the SHA-256 of the file's bytes (`FileFacts.sha256`).
    func key(path: String, contentHash: String, contextDigest: String) -> String {
        Digest.sha256Hex([storage.toolIdentity, configDigest, contextDigest, path, contentHash].joined(separator: "\u{0}"))
    }

    func load(_ key: String) -> FileResult? {
        storage.entry(forKey: key).flatMap(Entry.decode)
    }

    func store(_ result: FileResult, for key: String) {
        storage.store(Array(Entry.encode(result).utf8), forKey: key)
    }

    static let rules: [String: RuleDescription] = Dictionary(
        uniqueKeysWithValues: RuleCatalog.descriptions.map { ($0.id, $0) })

    /// One line per finding or note, tab-separated and escaped, without what the catalog
    /// already holds (each rule's fix and citation). JSON decoding of the same data took most
    /// of a warm scan's time.
    enum Entry {
        static let header = "a11y-audit cache 9"

        static func encode(_ result: FileResult) -> String {
            var out = header + "\n"
            for finding in result.findings {
                out += line(["F", finding.ruleID, finding.kind.rawValue, finding.severity.rawValue, finding.certainty.rawValue, finding.location.file,
                             String(finding.location.line), String(finding.location.column), String(finding.platforms.rawValue),
                             finding.fingerprint, finding.message, finding.snippet, finding.sourceLine, finding.requiredUse.joined(separator: "\u{1}"),
                             finding.overriddenBy.joined(separator: "\u{1}"), finding.reviewIf.joined(separator: "\u{1}")])
                if let correction = finding.correction { out += line(correctionFields(correction)) }
            }
            for note in result.notes {
                out += line(["N", note.kind.rawValue, note.file, note.line.map(String.init) ?? "", note.message])
            }
            if result.suppressedCount > 0 { out += "S\t\(result.suppressedCount)\n" }
            if result.nonShippingCount > 0 { out += "D\t\(result.nonShippingCount)\n" }
            if !result.referencedNames.isEmpty {
                out += line(["R"] + result.referencedNames.sorted())
            }
            if !result.assignedMembers.isEmpty {
                out += line(["A"] + result.assignedMembers.sorted())
            }
            if !result.componentUses.isEmpty {
                out += line(["V"] + result.componentUses.sorted())
            }
            for use in result.colorUses {
                out += line(["U", use.name, String(use.line), String(use.column), use.viaSymbol ? "1" : "0"])
            }
            return out
        }

        /// `nil` for a damaged entry or one naming a rule the catalog no longer has. Works on
        /// bytes: Foundation's string searching made decoding slower than parsing.
        static func decode(_ bytes: [UInt8]) -> FileResult? {
            var lines: [ArraySlice<UInt8>] = []
            var start = 0
            while start < bytes.count {
                let end = ByteSearch.next(UInt8(ascii: "\n"), in: bytes[start...])
                if end > start { lines.append(bytes[start..<end]) }
                start = end + 1
            }
            guard let first = lines.first, first.elementsEqual(header.utf8) else { return nil }
            var result = FileResult()
            for line in lines.dropFirst() {
                let fields = Self.fields(of: line)
                switch fields.first {
                case "F":
                    guard fields.count == 16, let rule = rules[fields[1]], let kind = RuleKind(rawValue: fields[2]),
                          let severity = Severity(rawValue: fields[3]), let certainty = Certainty(rawValue: fields[4]),
                          let lineNumber = Int(fields[6]), let column = Int(fields[7]), let platforms = UInt8(fields[8]) else { return nil }
                    result.findings.append(Finding(
                        ruleID: fields[1], kind: kind, severity: severity, certainty: certainty,
                        location: SourceLocation(file: fields[5], line: lineNumber, column: column), message: fields[10],
                        fix: rule.fix, citation: rule.citation, platforms: PlatformSet(rawValue: platforms),
                        fingerprint: fields[9], snippet: fields[11], sourceLine: fields[12]))
                    if !fields[13].isEmpty {
                        result.findings[result.findings.count - 1].requiredUse = subfields(fields[13])
                    }
                    if !fields[14].isEmpty {
                        result.findings[result.findings.count - 1].overriddenBy = subfields(fields[14])
                    }
                    if !fields[15].isEmpty {
                        result.findings[result.findings.count - 1].reviewIf = subfields(fields[15])
                    }
                case "C":
                    // The correction of the finding on the line before.
                    guard !result.findings.isEmpty, let correction = correction(fields) else { return nil }
                    result.findings[result.findings.count - 1].correction = correction
                case "N":
                    guard fields.count == 5, let kind = ScanNote.Kind(rawValue: fields[1]) else { return nil }
                    result.notes.append(ScanNote(kind: kind, file: fields[2], line: Int(fields[3]), message: fields[4]))
                case "S":
                    guard fields.count == 2, let count = Int(fields[1]) else { return nil }
                    result.suppressedCount = count
                case "D":
                    guard fields.count == 2, let count = Int(fields[1]) else { return nil }
                    result.nonShippingCount = count
                case "R":
                    result.referencedNames = Set(fields.dropFirst())
                case "V":
                    result.componentUses = Set(fields.dropFirst())
                case "A":
                    result.assignedMembers = Set(fields.dropFirst())
                case "U":
                    guard fields.count == 5, let line = Int(fields[2]), let column = Int(fields[3]) else { return nil }
                    result.colorUses.append(ColorNameUse(name: fields[1], line: line, column: column, viaSymbol: fields[4] == "1"))
                default:
                    return nil
                }
            }
            return result
        }

        /// `C`, the summary, then each edit's file, start (offset, line, column), end and replacement.
        static func correctionFields(_ correction: Correction) -> [String] {
            var fields = ["C", correction.summary]
            for edit in correction.edits {
                fields.append(edit.file)
                for point in [edit.start, edit.end] { fields += [String(point.offset), String(point.line), String(point.column)] }
                fields.append(edit.replacement)
            }
            return fields
        }

        static func correction(_ fields: [String]) -> Correction? {
            guard fields.count >= 2, (fields.count - 2) % 8 == 0 else { return nil }
            var edits: [TextEdit] = []
            for start in stride(from: 2, to: fields.count, by: 8) {
                let numbers = fields[start + 1...start + 6].compactMap { Int($0) }
                guard numbers.count == 6 else { return nil }
                edits.append(TextEdit(file: fields[start], start: TextPoint(offset: numbers[0], line: numbers[1], column: numbers[2]),
                                      end: TextPoint(offset: numbers[3], line: numbers[4], column: numbers[5]),
                                      replacement: fields[start + 7]))
            }
            return Correction(summary: fields[1], edits: edits)
        }

        /// One line of tab-separated, escaped fields, ending in a line break.
        static func line(_ fields: [String]) -> String { fields.map(escape).joined(separator: "\t") + "\n" }

        /// The fields of one line (without its line break).
        static func fields(of line: ArraySlice<UInt8>) -> [String] {
            // memchr for tabs: the generic `split` was a tenth of a warm re-scan.
            var fields: [String] = []
            var start = line.startIndex
            while true {
                let end = ByteSearch.next(UInt8(ascii: "\t"), in: line[start...])
                fields.append(unescape(line[start..<end]))
                if end == line.endIndex { return fields }
                start = end + 1
            }
        }

        /// A field's `\u{1}`-separated parts, split as bytes (`String.split` walks characters).
        static func subfields(_ field: String) -> [String] {
            field.utf8.split(separator: 1).map { String(decoding: $0, as: UTF8.self) }
        }

        /// Byte by byte: `"\r\n"` is one Character, which matches neither `"\r"` nor `"\n"`, and
        /// a field holding one would break its entry into lines.
        static func escape(_ text: String) -> String {
            let special: (UInt8) -> Bool = { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
            guard text.utf8.contains(where: special) else { return text }
            var out: [UInt8] = []
            out.reserveCapacity(text.utf8.count + 8)
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                default: out.append(byte)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }

        static func unescape(_ field: ArraySlice<UInt8>) -> String {
            guard ByteSearch.next(UInt8(ascii: "\\"), in: field) < field.endIndex else {
                return String(decoding: field, as: UTF8.self)
            }
            var out: [UInt8] = []
            out.reserveCapacity(field.count)
            var escaped = false
            for byte in field {
                if escaped {
                    switch byte {
                    case UInt8(ascii: "t"): out.append(UInt8(ascii: "\t"))
                    case UInt8(ascii: "n"): out.append(UInt8(ascii: "\n"))
                    case UInt8(ascii: "r"): out.append(UInt8(ascii: "\r"))
                    default: out.append(byte)
                    }
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else {
                    out.append(byte)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}

/// Identifies this build of the tool, so a cache never serves results of older rules.
public enum ToolIdentity {
    /// The executable's size and modification time: a rebuild changes them, and reading them
    /// costs nothing, where hashing the binary would cost more than a warm scan.
    public static let digest: String = {
        var info = stat()
        var identity = Scanner.toolVersion + "|" + RuleCatalog.allRuleIDs.joined(separator: ",")
        if stat("/proc/self/exe", &info) == 0 {
            identity += "|\(info.st_size)|\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)|\(info.st_ino)"
        }
        return Digest.sha256Hex(identity)
    }()

    /// A hash of the executable itself: the same on every machine the same build is deployed
    /// to, for caches shared between machines. Read once per process.
    public static let contentDigest: String = {
        let identity = Scanner.toolVersion + "|" + RuleCatalog.allRuleIDs.joined(separator: ",")
        // The linker's GNU build ID is already a hash of the binary; hashing the whole file
        // again costs about 0.1 s per process.
        if let buildID = gnuBuildID(ofExecutable: "/proc/self/exe") { return Digest.sha256Hex(identity + "|build-id " + buildID) }
        guard let binary = FileManager.default.contents(atPath: "/proc/self/exe") else { return digest }
        return Digest.sha256Hex(identity + "|" + Digest.sha256Hex([UInt8](binary)))
    }()

    /// The `NT_GNU_BUILD_ID` note of a 64-bit little-endian ELF file, as hex; nil when absent.
    public static func gnuBuildID(ofExecutable path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        func read(_ offset: UInt64, _ count: Int) -> [UInt8]? {
            guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.read(upToCount: count), data.count == count else { return nil }
            return [UInt8](data)
        }
        func integer(_ bytes: [UInt8], _ at: Int, _ size: Int) -> UInt64 {
            (0..<size).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
        }
        guard let header = read(0, 64), header[0..<4].elementsEqual([0x7F, 0x45, 0x4C, 0x46]),
              header[4] == 2, header[5] == 1 else { return nil }   // ELFCLASS64, little-endian
        let programHeaders = integer(header, 32, 8), entrySize = Int(integer(header, 54, 2)), count = Int(integer(header, 56, 2))
        guard entrySize >= 56, count < 256 else { return nil }
        for index in 0..<count {
            guard let entry = read(programHeaders + UInt64(index * entrySize), 56), integer(entry, 0, 4) == 4 else { continue } // PT_NOTE
            let offset = integer(entry, 8, 8), size = Int(integer(entry, 32, 8))
            guard size < 1 << 16, let notes = read(offset, size) else { continue }
            var position = 0
            while position + 12 <= notes.count {
                let nameSize = Int(integer(notes, position, 4)), descriptorSize = Int(integer(notes, position + 4, 4))
                let type = integer(notes, position + 8, 4)
                let nameStart = position + 12, descriptorStart = nameStart + (nameSize + 3) & ~3
                guard descriptorStart + descriptorSize <= notes.count else { break }
                if type == 3, nameSize == 4, notes[nameStart..<nameStart + 3].elementsEqual(Array("GNU".utf8)), descriptorSize > 0 {
                    return notes[descriptorStart..<descriptorStart + descriptorSize].map { String(format: "%02x", $0) }.joined()
                }
                position = descriptorStart + (descriptorSize + 3) & ~3
            }
        }
        return nil
    }
}
