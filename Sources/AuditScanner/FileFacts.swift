import AuditModel
import Foundation
import Synchronization
import SwiftChecks

/// A file's identity on disk as `stat` gives it: what git's index and SwiftLint's cache compare
/// to know a file is unchanged without reading it.
public struct FileStamp: Sendable, Equatable {
    public var size: Int64
    public var modifiedSeconds: Int64
    public var modifiedNanoseconds: Int64
    public var changedSeconds: Int64
    public var changedNanoseconds: Int64
    public var inode: UInt64
    public var device: UInt64

    init(_ info: stat) {
        size = Int64(info.st_size)
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        changedSeconds = Int64(info.st_ctim.tv_sec)
        changedNanoseconds = Int64(info.st_ctim.tv_nsec)
        inode = UInt64(info.st_ino)
        device = UInt64(info.st_dev)
    }

    init(size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64, changedSeconds: Int64, changedNanoseconds: Int64,
         inode: UInt64, device: UInt64) {
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
        self.changedSeconds = changedSeconds
        self.changedNanoseconds = changedNanoseconds
        self.inode = inode
        self.device = device
    }
}

/// What a scan learns from a Swift file's bytes before parsing it: their hash (the result
/// cache's key), the import header and the byte prefilters. The same for the same bytes, so a
/// file whose stamp has not changed since they were read needs no read at all.
struct FileFacts: Sendable, Equatable {
    var sha256: String
    var header: ImportScanner.Header
    var isValidUTF8: Bool
    var hasNUL: Bool
    var declaresUIType: Bool
    /// `ColorTokens.mayDeclare` or `ColorNamespaceFacts.mayDeclare`.
    var mayDeclareColors: Bool
    var mayReexport: Bool

    /// `hashing`: whether a cache will key anything by the bytes' hash (empty otherwise).
    init(_ bytes: [UInt8], hashing: Bool) {
        sha256 = hashing ? Digest.sha256Hex(bytes) : ""
        header = ImportScanner.scan(bytes)
        hasNUL = bytes.prefix(8192).contains(0)
        isValidUTF8 = String(validating: bytes, as: UTF8.self) != nil
        declaresUIType = FileProcessor.declaresUIType(bytes)
        mayDeclareColors = ColorTokens.mayDeclare(bytes) || ColorNamespaceFacts.mayDeclare(bytes)
        mayReexport = ImportScanner.mayReexport(bytes)
    }

    init(sha256: String, header: ImportScanner.Header, isValidUTF8: Bool, hasNUL: Bool, declaresUIType: Bool,
         mayDeclareColors: Bool, mayReexport: Bool) {
        self.sha256 = sha256
        self.header = header
        self.isValidUTF8 = isValidUTF8
        self.hasNUL = hasNUL
        self.declaresUIType = declaresUIType
        self.mayDeclareColors = mayDeclareColors
        self.mayReexport = mayReexport
    }

    /// Re-exports a UI framework (`@_exported import UIKit`).
    var reexportsUI: Bool { mayReexport && !header.exportedUIModules.isEmpty }
}

/// Each Swift file's facts for one scan of a directory, and across scans by the file's stamp:
/// read from the cache storage when the scan starts and written back when it ends. The project
/// index and the first and second look at a file share one read of its bytes; a warm re-scan
/// reads only the files whose stamps changed (reading and hashing every file was a third of it).
///
/// A recorded stamp is believed only when the file's modification time was at least
/// `racyMargin` (20 ms: two clock ticks of a kernel at 100 Hz, where file times advance by
/// the tick) older than the moment its bytes were read (two seconds on file systems that
/// keep whole seconds): a write within the same clock tick as the read would leave the stamp
/// as it was (git's "racily clean" entries). Such files are read and hashed again.
final class FileFactsTable: Sendable {
    private struct Known: Sendable {
        var stamp: FileStamp
        /// `CLOCK_REALTIME` when the read began, in nanoseconds.
        var readAt: Int64
        var facts: FileFacts
    }
    private struct State {
        var recorded: [String: Known] = [:]
        var current: [String: Known] = [:]
        /// A file was read this scan: the table to store differs from the one loaded.
        var changed = false
    }
    private let state: Mutex<State>
    private let storage: (any ScanCacheStorage)?
    private let key: String
    /// A cache keys results by content: the facts carry the bytes' hash.
    let hashes: Bool

    static let racyMargin: Int64 = 20_000_000
    static let coarseRacyMargin: Int64 = 2_000_000_000
    static let header = "a11y-audit file facts 1"

    /// `persisting`: the files are a directory's, whose stamps say when they change (an
    /// archive's entries have none, and are read every time).
    init(storage: (any ScanCacheStorage)?, persisting: Bool, root: String) {
        self.storage = persisting ? storage : nil
        hashes = storage != nil
        key = Digest.sha256Hex([storage?.toolIdentity ?? "", "file-facts", root].joined(separator: "\u{0}"))
        let recorded = self.storage?.entry(forKey: key).map(Self.decode) ?? [:]
        state = Mutex(State(recorded: recorded))
    }

    /// The file's facts: known this scan, recorded by an earlier one under the same stamp, or
    /// read now (nil when the file cannot be read). `bytes` receives the bytes when they were read.
    func facts(for file: InputFile, bytes: inout [UInt8]?) -> FileFacts? {
        if let known = known(file) { return known }
        let readAt = Self.now()
        guard let read = try? file.bytes() else { return nil }
        bytes = read
        let facts = FileFacts(read, hashing: hashes)
        record(file, facts: facts, readAt: readAt)
        return facts
    }

    /// The facts without reading: known this scan, or recorded under the file's current stamp.
    func known(_ file: InputFile) -> FileFacts? {
        state.withLock { state -> FileFacts? in
            if let current = state.current[file.path] { return current.facts }
            guard let stamp = file.stamp, let recorded = state.recorded[file.path], recorded.stamp == stamp,
                  Self.isSettled(stamp, readAt: recorded.readAt) else { return nil }
            state.current[file.path] = recorded
            return recorded.facts
        }
    }

    /// Facts of bytes read now: the check must key its result by the bytes it checked.
    func record(_ file: InputFile, facts: FileFacts, readAt: Int64) {
        state.withLock { state in
            let stamp = file.stamp ?? FileStamp(size: -1, modifiedSeconds: 0, modifiedNanoseconds: 0, changedSeconds: 0,
                                                changedNanoseconds: 0, inode: 0, device: 0)
            state.current[file.path] = Known(stamp: stamp, readAt: readAt, facts: facts)
            state.changed = true
        }
    }

    /// Writes this scan's facts of stamped files for the next scan (files gone are dropped).
    func save() {
        guard let storage else { return }
        let (current, changed) = state.withLock { state in
            (state.current.filter { $0.value.stamp.size >= 0 }, state.changed || state.current.count != state.recorded.count)
        }
        // Nothing read and nothing gone: the stored table already says all of it.
        guard changed, !current.isEmpty else { return }
        var out = Array((Self.header + "\n").utf8)
        out.reserveCapacity(current.count * 200)
        for (path, known) in current {
            // A path holding a tab or newline cannot be written in this format: it is read again next time.
            guard !path.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A }) else { continue }
            let stamp = known.stamp, facts = known.facts, header = facts.header
            let flags = [facts.isValidUTF8, facts.hasNUL, facts.declaresUIType, facts.mayDeclareColors, facts.mayReexport,
                         header.looksGenerated].map { $0 ? UInt8(ascii: "1") : UInt8(ascii: "0") }
            let numbers = [stamp.size, stamp.modifiedSeconds, stamp.modifiedNanoseconds, stamp.changedSeconds, stamp.changedNanoseconds,
                           Int64(bitPattern: stamp.inode), Int64(bitPattern: stamp.device), known.readAt]
            out += path.utf8
            for number in numbers { out.append(0x09); out += String(number).utf8 }
            out.append(0x09); out += facts.sha256.utf8
            out.append(0x09); out += flags
            for names in [header.imports, header.unguardedImports, header.exportedUIModules] {
                out.append(0x09); out += names.sorted().joined(separator: ",").utf8
            }
            out.append(0x0A)
        }
        storage.store(out, forKey: key)
    }

    static func isSettled(_ stamp: FileStamp, readAt: Int64) -> Bool {
        let modified = stamp.modifiedSeconds &* 1_000_000_000 &+ stamp.modifiedNanoseconds
        let changed = stamp.changedSeconds &* 1_000_000_000 &+ stamp.changedNanoseconds
        let coarse = stamp.modifiedNanoseconds == 0 && stamp.changedNanoseconds == 0
        return readAt &- max(modified, changed) > (coarse ? coarseRacyMargin : racyMargin)
    }

    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// A damaged or foreign table is empty: every file is read again. Read as bytes: splitting
    /// the table's text by `Character` cost more than the reads it saves.
    private static func decode(_ bytes: [UInt8]) -> [String: Known] {
        var known: [String: Known] = [:]
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            if index > start { lines.append(bytes[start..<index]) }
            start = index + 1
        }
        guard let first = lines.first, first.elementsEqual(header.utf8) else { return [:] }
        known.reserveCapacity(lines.count)
        for line in lines.dropFirst() {
            var fields: [ArraySlice<UInt8>] = []
            fields.reserveCapacity(14)
            var fieldStart = line.startIndex
            for index in line.indices where line[index] == 0x09 {
                fields.append(line[fieldStart..<index])
                fieldStart = index + 1
            }
            fields.append(line[fieldStart..<line.endIndex])
            guard fields.count == 14, let size = integer(fields[1]), let modified = integer(fields[2]),
                  let modifiedNano = integer(fields[3]), let changed = integer(fields[4]), let changedNano = integer(fields[5]),
                  let inode = integer(fields[6]), let device = integer(fields[7]), let readAt = integer(fields[8]),
                  fields[9].count == 64, fields[10].count == 6 else { return [:] }
            let flags = fields[10].map { $0 == UInt8(ascii: "1") }
            func names(_ field: ArraySlice<UInt8>) -> Set<String> {
                guard !field.isEmpty else { return [] }
                return Set(field.split(separator: UInt8(ascii: ",")).map { String(decoding: $0, as: UTF8.self) })
            }
            var header = ImportScanner.Header()
            header.imports = names(fields[11])
            header.unguardedImports = names(fields[12])
            header.exportedUIModules = names(fields[13])
            header.looksGenerated = flags[5]
            let facts = FileFacts(sha256: String(decoding: fields[9], as: UTF8.self), header: header, isValidUTF8: flags[0],
                                  hasNUL: flags[1], declaresUIType: flags[2], mayDeclareColors: flags[3], mayReexport: flags[4])
            known[String(decoding: fields[0], as: UTF8.self)] = Known(
                stamp: FileStamp(size: size, modifiedSeconds: modified, modifiedNanoseconds: modifiedNano, changedSeconds: changed,
                                 changedNanoseconds: changedNano, inode: UInt64(bitPattern: inode), device: UInt64(bitPattern: device)),
                readAt: readAt, facts: facts)
        }
        return known
    }

    /// A decimal integer, optionally negative; nil for anything else or an overflow.
    static func integer(_ digits: ArraySlice<UInt8>) -> Int64? {
        var rest = digits[...]
        let negative = rest.first == UInt8(ascii: "-")
        if negative { rest = rest.dropFirst() }
        guard !rest.isEmpty, rest.count <= 20 else { return nil }
        var value: Int64 = 0
        for byte in rest {
            guard (0x30...0x39).contains(byte) else { return nil }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(Int64(byte - 0x30))
            guard !overflowTimes, !overflowSum else { return nil }
            value = sum
        }
        return negative ? -value : value
    }
}
