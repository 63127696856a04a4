import CPostgres
import Foundation

/// A statement parameter. Text goes in libpq's text format; bytes in binary format, so they
/// arrive unchanged whatever they hold.
public enum PostgresValue: Sendable, Equatable {
    case text(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case bytes([UInt8])
    case null

    public static func optional(_ value: String?) -> PostgresValue { value.map(PostgresValue.text) ?? .null }
    public static func optional(_ value: Int?) -> PostgresValue { value.map(PostgresValue.int) ?? .null }

    /// A text array literal for `$n::text[]` parameters (`= ANY($n)`), quoted per PostgreSQL's rules.
    public static func textArray(_ values: [String]) -> PostgresValue { optionalTextArray(values) }

    /// A text array literal where nil elements are SQL NULLs.
    public static func optionalTextArray(_ values: [String?]) -> PostgresValue {
        // Byte by byte: Foundation's replacingOccurrences cost more than the database round trip.
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(values.reduce(2) { $0 + ($1?.utf8.count ?? 4) + 3 })
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            guard let value else { bytes.append(contentsOf: Array("NULL".utf8)); continue }
            bytes.append(UInt8(ascii: "\""))
            for byte in value.utf8 {
                if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") { bytes.append(UInt8(ascii: "\\")) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "}"))
        return .text(String(decoding: bytes, as: UTF8.self))
    }

    public static func intArray(_ values: [Int]) -> PostgresValue { optionalIntArray(values) }

    /// A boolean array literal for `$n::bool[]` parameters.
    public static func boolArray(_ values: [Bool]) -> PostgresValue {
        .text("{" + values.map { $0 ? "t" : "f" }.joined(separator: ",") + "}")
    }

    /// An integer array literal where nil elements are SQL NULLs.
    public static func optionalIntArray(_ values: [Int?]) -> PostgresValue {
        .text("{" + values.map { $0.map(String.init) ?? "NULL" }.joined(separator: ",") + "}")
    }

    func encoded(purpose: String) throws -> EncodedParameter {
        switch self {
        case .text(let string):
            // Text format ends at the first NUL; PostgreSQL text cannot hold one either.
            if string.utf8.contains(0) {
                throw DatabaseError.invalidParameter(purpose: purpose, reason: "text contains a NUL character")
            }
            return EncodedParameter(bytes: Array(string.utf8), isBinary: false)
        case .int(let value): return EncodedParameter(bytes: Array(String(value).utf8), isBinary: false)
        case .double(let value):
            guard value.isFinite else {
                throw DatabaseError.invalidParameter(purpose: purpose, reason: "number \(value) is not finite")
            }
            return EncodedParameter(bytes: Array(String(value).utf8), isBinary: false)
        case .bool(let value): return EncodedParameter(bytes: Array((value ? "t" : "f").utf8), isBinary: false)
        case .bytes(let bytes): return EncodedParameter(bytes: bytes, isBinary: true)
        case .null: return EncodedParameter(bytes: nil, isBinary: false)
        }
    }
}

struct EncodedParameter {
    let bytes: [UInt8]?
    let isBinary: Bool
}

/// The rows of a result, copied out of libpq as text (PostgreSQL's own text forms).
public struct PostgresRows: Sendable, Sequence {
    public let columns: [String]
    public let values: [[String?]]
    public let affectedRows: Int
    private let columnIndex: [String: Int]

    init(_ result: OpaquePointer) {
        let columnCount = Int(PQnfields(result))
        let rowCount = Int(PQntuples(result))
        columns = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        values = (0..<rowCount).map { row in
            (0..<columnCount).map { column in
                PQgetisnull(result, Int32(row), Int32(column)) == 1
                    ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(column)))
            }
        }
        affectedRows = Int(String(cString: PQcmdTuples(result))) ?? 0
        columnIndex = Dictionary(columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public var count: Int { values.count }
    public var isEmpty: Bool { values.isEmpty }
    public var first: PostgresRow? { values.isEmpty ? nil : PostgresRow(values: values[0], columnIndex: columnIndex) }
    public subscript(row: Int) -> PostgresRow { PostgresRow(values: values[row], columnIndex: columnIndex) }

    public func makeIterator() -> AnyIterator<PostgresRow> {
        var rows = values.makeIterator()
        let index = columnIndex
        return AnyIterator { rows.next().map { PostgresRow(values: $0, columnIndex: index) } }
    }
}

public struct PostgresRow: Sendable {
    let values: [String?]
    let columnIndex: [String: Int]

    public func string(_ column: String) -> String? { columnIndex[column].flatMap { values[$0] } }
    public func int(_ column: String) -> Int? { string(column).flatMap { Int($0) } }
    public func double(_ column: String) -> Double? { string(column).flatMap { Double($0) } }
    public func bool(_ column: String) -> Bool? { string(column).map { $0 == "t" || $0 == "true" } }

    /// `bytea` in its hex text form (`\x4142…`).
    public func bytes(_ column: String) -> [UInt8]? {
        guard let text = string(column), text.hasPrefix("\\x") else { return nil }
        let hex = Array(text.utf8.dropFirst(2))
        guard hex.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        var index = 0
        while index < hex.count {
            guard let high = Self.nibble(hex[index]), let low = Self.nibble(hex[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
