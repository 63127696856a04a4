import AuditModel

/// A small JSON reader over bytes that remembers the line each value starts on, so a message
/// about a colour set can point at the entry in its `Contents.json`. It keeps numbers as their
/// source text (asset catalogs write components as strings or numbers, and "1" and "1.000" must
/// stay distinguishable), and keeps object members in file order.
struct JSONNode: Sendable {
    let value: JSONValue
    /// 1-based line of the value's first character.
    let line: Int

    /// The member named `key` of an object (the last one when a key repeats, as most readers do).
    subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.last { $0.key == key }?.value
    }

    var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    var array: [JSONNode]? {
        if case .array(let items) = value { return items }
        return nil
    }

    var members: [JSONMember]? {
        if case .object(let members) = value { return members }
        return nil
    }

    var bool: Bool? {
        if case .bool(let flag) = value { return flag }
        return nil
    }

    /// A number's value, whether written as a JSON number or not at all.
    var number: Double? {
        if case .number(let text) = value { return Double(text) }
        return nil
    }

    /// What kind of value this is, for messages ("expected a string, found an array").
    var kind: String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}

struct JSONMember: Sendable {
    let key: String
    let value: JSONNode
}

enum JSONValue: Sendable {
    case object([JSONMember])
    case array([JSONNode])
    case string(String)
    /// The number's source text, already checked against JSON's number grammar.
    case number(String)
    case bool(Bool)
    case null
}

struct JSONSyntaxError: Error, Sendable {
    let line: Int
    let message: String
}

/// Recursive-descent reader. Nesting is limited so hostile input cannot exhaust the stack.
/// A comma after an object's or array's last item is read past and its line noted: hand-edited
/// and generated Contents.json files carry them, and the colours they hold are still meant.
struct JSONReader {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var trailingCommaLines: [Int] = []
    private static let maximumDepth = 64

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        try parseNotingTrailingCommas(bytes).root
    }

    /// The value, and the lines of commas that end a list or an object (strict JSON refuses them).
    static func parseNotingTrailingCommas(_ bytes: [UInt8]) throws(JSONSyntaxError) -> (root: JSONNode, trailingCommaLines: [Int]) {
        var reader = JSONReader(bytes)
        // A UTF-8 byte-order mark is tolerated, as Xcode and most editors do.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
        reader.skipWhitespace()
        guard reader.index < bytes.count else {
            throw JSONSyntaxError(line: 1, message: "the file is empty")
        }
        let root = try reader.parseValue(depth: 0)
        reader.skipWhitespace()
        if reader.index < bytes.count {
            throw reader.error("unexpected \(reader.describeCurrent()) after the end of the JSON value")
        }
        return (root, reader.trailingCommaLines)
    }

    /// After a comma: true (and noted) when `closer` follows, so the list or object ends there.
    private mutating func closesAfterComma(_ closer: Unicode.Scalar) -> Bool {
        let commaLine = line
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: closer) else { return false }
        trailingCommaLines.append(commaLine)
        index += 1
        return true
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(line: line, message: message)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x0A: line += 1; index += 1
            case 0x20, 0x09, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        guard index < bytes.count else { throw error("unexpected end of file where a value was expected") }
        let startLine = line
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [JSONMember] = []
            members.reserveCapacity(4)                              // Contents.json objects are small
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
                index += 1
                return JSONNode(value: .object(members), line: startLine)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw error("expected a quoted key, found \(describeCurrent())")
                }
                let key = try parseString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw error("expected ':' after key \"\(InputExcerpt.of(key))\", found \(describeCurrent())")
                }
                index += 1
                skipWhitespace()
                let value = try parseValue(depth: depth + 1)
                members.append(JSONMember(key: key, value: value))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of file inside an object") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    if closesAfterComma("}") { break }
                    continue
                }
                if bytes[index] == UInt8(ascii: "}") { index += 1; break }
                throw error("expected ',' or '}' in an object, found \(describeCurrent())")
            }
            return JSONNode(value: .object(members), line: startLine)
        case UInt8(ascii: "["):
            index += 1
            var items: [JSONNode] = []
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
                index += 1
                return JSONNode(value: .array(items), line: startLine)
            }
            while true {
                skipWhitespace()
                items.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of file inside an array") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    if closesAfterComma("]") { break }
                    continue
                }
                if bytes[index] == UInt8(ascii: "]") { index += 1; break }
                throw error("expected ',' or ']' in an array, found \(describeCurrent())")
            }
            return JSONNode(value: .array(items), line: startLine)
        case UInt8(ascii: "\""):
            return JSONNode(value: .string(try parseString()), line: startLine)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return JSONNode(value: .bool(true), line: startLine)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return JSONNode(value: .bool(false), line: startLine)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return JSONNode(value: .null, line: startLine)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try parseNumber()), line: startLine)
        default:
            throw error("unexpected \(describeCurrent()) where a value was expected")
        }
    }

    private mutating func expectLiteral(_ literal: String) throws(JSONSyntaxError) {
        let expected = Array(literal.utf8)
        guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected) else {
            throw error("unexpected \(describeCurrent()) where a value was expected")
        }
        index += expected.count
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = index
        func digits(_ reader: inout JSONReader) -> Int {
            let from = reader.index
            while reader.index < reader.bytes.count, reader.bytes[reader.index] >= UInt8(ascii: "0"),
                  reader.bytes[reader.index] <= UInt8(ascii: "9") {
                reader.index += 1
            }
            return reader.index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw error("a number needs digits after '-'") }
        if integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0") {
            throw error("a number may not start with a leading zero")
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("a number needs digits after '.'") }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            guard digits(&self) > 0 else { throw error("a number needs digits in its exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let startLine = line
        index += 1                                                  // opening quote
        // Keys and values without escapes (nearly all of them) are sliced from the bytes.
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            // ASCII needs no validation (the generic validating initializer is most of the cost).
            if !bytes[index..<end].contains(where: { $0 >= 0x80 }) {
                let text = String(decoding: bytes[index..<end], as: UTF8.self)
                index = end + 1
                return text
            }
            guard let text = String(validating: bytes[index..<end], as: UTF8.self) else {
                throw JSONSyntaxError(line: startLine, message: "a string is not valid UTF-8")
            }
            index = end + 1
            return text
        }
        var buffer: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: buffer, as: UTF8.self) else {
                    throw JSONSyntaxError(line: startLine, message: "a string is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): buffer.append(0x22)
                case UInt8(ascii: "\\"): buffer.append(0x5C)
                case UInt8(ascii: "/"): buffer.append(0x2F)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        // A high surrogate must be followed by an escaped low surrogate.
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                              bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("an unpaired UTF-16 surrogate in a \\u escape")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else {
                            throw error("an unpaired UTF-16 surrogate in a \\u escape")
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw error("an unpaired UTF-16 surrogate in a \\u escape")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else {
                        throw error("\\u escape does not name a character")
                    }
                    buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw error("unknown escape '\\\(Character(Unicode.Scalar(escape)))' in a string")
                }
            case 0x00...0x1F:
                throw error("a control character inside a string (strings cannot span lines)")
            default:
                buffer.append(byte)
                index += 1
            }
        }
        throw JSONSyntaxError(line: startLine, message: "a string is not closed before the end of the file")
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("\\u escape needs four hex digits") }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = hexDigitValue(byte) else { throw error("\\u escape needs four hex digits") }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }
}

/// The value of one ASCII hex digit.
func hexDigitValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}
