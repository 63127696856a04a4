import AuditModel
import Foundation

/// A needle searched for in bytes: in contiguous bytes with glibc's memmem (two-way matching,
/// vectorised), elsewhere with Knuth–Morris–Pratt. Both read each byte of the haystack a bounded
/// number of times however the needle half-matches, so a hostile file full of near-matches
/// costs the same as any other of its size.
struct BytePattern {
    let needle: [UInt8]
    /// `fallback[i]`: the length of the longest proper prefix of `needle[0...i]` that is also
    /// its suffix.
    private let fallback: [Int]

    init(_ text: String) {
        needle = Array(text.utf8)
        var table = [Int](repeating: 0, count: needle.count)
        var length = 0
        var index = 1
        while index < needle.count {
            if needle[index] == needle[length] {
                length += 1
                table[index] = length
                index += 1
            } else if length > 0 {
                length = table[length - 1]
            } else {
                index += 1
            }
        }
        fallback = table
    }

    /// Calls `body` with the index just past each match, in order; `body` returns where the
    /// search resumes (at or after that index), so that what it reads is not searched again.
    func forEachMatch<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes, _ body: (Int) -> Int) where Bytes.Index == Int {
        guard !needle.isEmpty else { return }
        let searched: Void? = bytes.withContiguousStorageIfAvailable { haystack in
            needle.withUnsafeBufferPointer { needle in
                var offset = 0
                while let start = ASCII.firstMatch(needle, in: haystack, from: offset) {
                    let end = start + needle.count
                    offset = max(end, body(bytes.startIndex + end) - bytes.startIndex)
                }
            }
        }
        guard searched == nil else { return }
        var matched = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            while matched > 0, byte != needle[matched] { matched = fallback[matched - 1] }
            if byte == needle[matched] { matched += 1 }
            index += 1
            if matched == needle.count {
                index = max(index, body(index))
                matched = 0
            }
        }
    }

    /// Whether `bytes` holds `expected` at `index`.
    static func matches<Bytes: RandomAccessCollection<UInt8>>(_ expected: [UInt8], in bytes: Bytes, at index: Int) -> Bool
    where Bytes.Index == Int {
        guard index >= bytes.startIndex, bytes.endIndex - index >= expected.count else { return false }
        for offset in expected.indices where bytes[index + offset] != expected[offset] { return false }
        return true
    }

    static func isXMLSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

enum ByteSearch {
    /// The index of the first `byte` in `bytes`, or its end index: glibc's memchr, for the
    /// passes over every byte of a file or cache entry.
    static func next(_ byte: UInt8, in bytes: ArraySlice<UInt8>) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, let found = memchr(base, Int32(byte), buffer.count) else { return bytes.endIndex }
            return bytes.startIndex + UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
        }
    }
}
