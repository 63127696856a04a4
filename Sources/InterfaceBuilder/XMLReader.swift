import AuditModel
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One XML element as written: its name, attributes, where its start tag begins, and its place
/// in the tree (indices into `XMLTree.elements`).
public struct XMLElementRecord: Sendable {
    public let name: String
    public let attributes: [String: String]
    /// 1-based line and column (in Unicode scalars) of the `<` that opens the element.
    public let line: Int
    public let column: Int
    public let parent: Int?
    public internal(set) var children: [Int] = []

    public subscript(attribute: String) -> String? { attributes[attribute] }
}

/// Every element of one document in document order; `elements[0]` is the root.
public struct XMLTree: Sendable {
    public let elements: [XMLElementRecord]
    public let text: TextLines

    /// Reads `bytes` with Foundation's XMLParser, external entities off, after refusing any
    /// encoding but UTF-8 and any DTD declaration, and within `limits`.
    public static func parse(_ bytes: [UInt8], path: String, limits: InterfaceBuilderLimits) throws(InterfaceBuilderError) -> XMLTree {
        guard bytes.count <= limits.maxBytes else {
            throw .tooLarge(path: path, bytes: bytes.count, limit: limits.maxBytes)
        }
        // The checks below are the guard, not the delegate: swift-corelibs-foundation's XMLParser
        // reports no internal entity declaration and expands the entities (measured with this
        // toolchain), whatever `shouldResolveExternalEntities` says.
        if let encoding = nonUTF8Encoding(of: bytes) { throw .notUTF8(path: path, encoding: encoding) }
        let text = TextLines(bytes)
        if let declaration = firstDeclaration(in: bytes) {
            throw .declarationNotAllowed(path: path, declaration: declaration.name,
                                         line: text.position(of: declaration.offset).line)
        }
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        let collector = Collector(path: path, limits: limits, text: text)
        parser.delegate = collector
        let finished = parser.parse()
        if let error = collector.error { throw error }
        // libxml2 recovers from some errors and still reports success; any reported error counts.
        if !finished || collector.elements.isEmpty || collector.depth != 0 {
            let position = (max(parser.lineNumber, 1), max(parser.columnNumber, 1))
            throw .malformed(path: path, line: position.0, column: position.1,
                             reason: collector.elements.isEmpty ? "no root element" : "the document ends inside an element")
        }
        return XMLTree(elements: collector.elements, text: text)
    }

    /// What the document is encoded in when that is not UTF-8, as libxml2 would decide it: a
    /// byte-order mark, the first bytes of `<?xml` in a wide encoding, NUL bytes, bytes that are
    /// not UTF-8, or an XML declaration naming another encoding. nil for UTF-8.
    static func nonUTF8Encoding(of bytes: [UInt8]) -> String? {
        let marks: [(prefix: [UInt8], name: String)] = [
            ([0x00, 0x00, 0xFE, 0xFF], "UTF-32 BE (byte-order mark)"), ([0xFF, 0xFE, 0x00, 0x00], "UTF-32 LE (byte-order mark)"),
            ([0xFE, 0xFF], "UTF-16 BE (byte-order mark)"), ([0xFF, 0xFE], "UTF-16 LE (byte-order mark)"),
            ([0x00, 0x00, 0x00, 0x3C], "UTF-32 BE (no byte-order mark)"), ([0x3C, 0x00, 0x00, 0x00], "UTF-32 LE (no byte-order mark)"),
            ([0x00, 0x3C, 0x00, 0x3F], "UTF-16 BE (no byte-order mark)"), ([0x3C, 0x00, 0x3F, 0x00], "UTF-16 LE (no byte-order mark)"),
            ([0x4C, 0x6F, 0xA7, 0x94], "EBCDIC"),
        ]
        if let mark = marks.first(where: { bytes.starts(with: $0.prefix) }) { return mark.name }
        if bytes.contains(0) { return "a form with NUL bytes (UTF-16 or UTF-32 without a byte-order mark, or binary)" }
        guard String(validating: bytes, as: UTF8.self) != nil else { return "bytes that are not valid UTF-8" }
        guard let declared = declaredEncoding(in: bytes) else { return nil }
        let name = declared.lowercased()
        return name == "utf-8" || name == "utf8" ? nil : "\"\(InputExcerpt.of(declared))\" (as its XML declaration says)"
    }

    /// The `encoding` pseudo-attribute of the XML declaration, which is only ever at the very
    /// start (after a UTF-8 byte-order mark).
    static func declaredEncoding(in bytes: [UInt8]) -> String? {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard bytes[start...].starts(with: Array("<?xml".utf8)), start + 5 < bytes.count,
              isSpace(bytes[start + 5]) else { return nil }
        let end = find(Array("?>".utf8), in: bytes, from: start + 5).map { $0 - 2 } ?? bytes.count
        let declaration = bytes[(start + 5)..<end]
        let key = Array("encoding".utf8)
        var index = declaration.startIndex
        while index < declaration.endIndex {
            guard declaration[index...].starts(with: key), isSpace(declaration[index - 1]) else {
                index += 1
                continue
            }
            var cursor = index + key.count
            while cursor < end, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < end, bytes[cursor] == UInt8(ascii: "=") else { return nil }
            cursor += 1
            while cursor < end, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < end, bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'") else { return nil }
            let quote = bytes[cursor]
            let valueStart = cursor + 1
            var valueEnd = valueStart
            while valueEnd < end, bytes[valueEnd] != quote { valueEnd += 1 }
            return String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The first `<!…>` that is neither a comment nor CDATA: DOCTYPE, ENTITY, ELEMENT, ATTLIST,
    /// NOTATION. A small tokenizer rather than a search for `<!--`: a processing instruction
    /// runs to its `?>` and a tag to its `>` whatever they hold (a `<!--` in `<?x <!-- ?>` opens
    /// no comment), so nothing before a DOCTYPE can hide it.
    static func firstDeclaration(in bytes: [UInt8]) -> (name: String, offset: Int)? {
        let comment = Array("<!--".utf8), commentEnd = Array("-->".utf8)
        let cdata = Array("<![CDATA[".utf8), cdataEnd = Array("]]>".utf8)
        let instructionEnd = Array("?>".utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count else {
                index += 1
                continue
            }
            switch bytes[index + 1] {
            case UInt8(ascii: "?"):
                index = find(instructionEnd, in: bytes, from: index + 2) ?? bytes.count
            case UInt8(ascii: "!"):
                if bytes[index...].starts(with: comment) {
                    index = find(commentEnd, in: bytes, from: index + comment.count) ?? bytes.count
                } else if bytes[index...].starts(with: cdata) {
                    index = find(cdataEnd, in: bytes, from: index + cdata.count) ?? bytes.count
                } else {
                    let name = bytes[(index + 2)...].prefix { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
                    return ("<!" + InputExcerpt.of(utf8: name, limit: 16), index)
                }
            default:
                // A start or end tag: a quoted attribute value may hold `>`.
                index += 1
                var quote: UInt8?
                while index < bytes.count {
                    let byte = bytes[index]
                    if let open = quote {
                        if byte == open { quote = nil }
                    } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                        quote = byte
                    } else if byte == UInt8(ascii: ">") {
                        break
                    }
                    index += 1
                }
                index += 1
            }
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], bytes[index...].starts(with: needle) { return index + needle.count }
            index += 1
        }
        return nil
    }
}

/// Receives XMLParser's callbacks for one parse; never outlives it.
private final class Collector: NSObject, XMLParserDelegate {
    let path: String
    let limits: InterfaceBuilderLimits
    let text: TextLines
    var elements: [XMLElementRecord] = []
    var open: [Int] = []
    var depth: Int { open.count }
    var error: InterfaceBuilderError?

    init(path: String, limits: InterfaceBuilderLimits, text: TextLines) {
        self.path = path
        self.limits = limits
        self.text = text
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String]) {
        guard error == nil else { return }
        let reported = (line: parser.lineNumber, column: parser.columnNumber)
        if elements.count >= limits.maxElements {
            stop(parser, .tooManyElements(path: path, limit: limits.maxElements, line: reported.line))
            return
        }
        if open.count >= limits.maxDepth {
            stop(parser, .tooDeep(path: path, limit: limits.maxDepth, line: reported.line))
            return
        }
        // The parser reports where the start tag ends; findings point where it begins.
        let start = text.startOfTag(elementName, endingNear: reported.line, column: reported.column)
        let index = elements.count
        elements.append(XMLElementRecord(name: elementName, attributes: attributes, line: start.line,
                                         column: start.column, parent: open.last))
        if let parent = open.last { elements[parent].children.append(index) }
        open.append(index)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard error == nil else { return }
        _ = open.popLast()
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard error == nil else { return }
        let code = (parseError as NSError).code
        stop(parser, .malformed(path: path, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1),
                                reason: Self.reason(code)))
    }

    // Declarations are refused before parsing; these stop the parser should one get through,
    // where XMLParser reports them (Apple's does; swift-corelibs-foundation's reports no internal
    // entity, which is why the pre-check is the guard).
    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        stop(parser, .declarationNotAllowed(path: path, declaration: "<!ENTITY", line: max(parser.lineNumber, 1)))
    }

    func parser(_ parser: XMLParser, foundUnparsedEntityDeclarationWithName name: String, publicID: String?, systemID: String?,
                notationName: String?) {
        stop(parser, .declarationNotAllowed(path: path, declaration: "<!ENTITY", line: max(parser.lineNumber, 1)))
    }

    func parser(_ parser: XMLParser, foundElementDeclarationWithName elementName: String, model: String) {
        stop(parser, .declarationNotAllowed(path: path, declaration: "<!ELEMENT", line: max(parser.lineNumber, 1)))
    }

    func parser(_ parser: XMLParser, foundAttributeDeclarationWithName attributeName: String, forElement elementName: String,
                type: String?, defaultValue: String?) {
        stop(parser, .declarationNotAllowed(path: path, declaration: "<!ATTLIST", line: max(parser.lineNumber, 1)))
    }

    func parser(_ parser: XMLParser, foundNotationDeclarationWithName name: String, publicID: String?, systemID: String?) {
        stop(parser, .declarationNotAllowed(path: path, declaration: "<!NOTATION", line: max(parser.lineNumber, 1)))
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        stop(parser, .declarationNotAllowed(path: path, declaration: "<!ENTITY", line: max(parser.lineNumber, 1)))
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        stop(parser, .declarationNotAllowed(path: path, declaration: "external entity", line: max(parser.lineNumber, 1)))
        return nil
    }

    private func stop(_ parser: XMLParser, _ failure: InterfaceBuilderError) {
        if error == nil { error = failure }
        parser.abortParsing()
    }

    /// libxml2's error numbers, as XMLParser passes them on, for the messages people see most.
    static func reason(_ code: Int) -> String {
        switch code {
        case 4: "document is empty"
        case 5: "the document ends early"
        case 9, 38, 39, 40, 41: "an attribute is malformed"
        case 26: "undefined entity"
        case 64, 65: "an attribute or tag name is malformed"
        case 68, 73: "a start tag is not closed"
        case 76, 77: "an end tag does not match its start tag"
        case 85: "an element is not closed"
        default: "XML error \(code)"
        }
    }
}

/// Line starts of a document's bytes: line and column of an offset, the text of a line.
public struct TextLines: Sendable {
    private let bytes: [UInt8]
    private var starts: [Int] = [0]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
    }

    /// The text of a 1-based line without its line break (capped for minified files).
    public func text(ofLine line: Int) -> String {
        guard line >= 1, line <= starts.count else { return "" }
        let start = starts[line - 1]
        var end = line < starts.count ? starts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: bytes[start..<min(end, start + 400)], as: UTF8.self)
    }

    func position(of offset: Int) -> (line: Int, column: Int) {
        var low = 0, high = starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        let end = min(max(offset, starts[low]), bytes.count)
        let column = bytes[starts[low]..<end].reduce(0) { $0 + (($1 & 0xC0) == 0x80 ? 0 : 1) } + 1
        return (low + 1, column)
    }

    /// The `<name` at or before the parser's reported position (1-based line, byte column).
    func startOfTag(_ name: String, endingNear line: Int, column: Int) -> (line: Int, column: Int) {
        guard line >= 1, line <= starts.count else { return (max(line, 1), 1) }
        let pattern = Array(("<" + name).utf8)
        var index = min(starts[line - 1] + max(column, 0), bytes.count - 1)
        // A start tag Xcode writes is one line; the bound keeps a hostile file linear.
        let floor = max(0, index - 65_536)
        while index >= floor {
            if bytes[index] == UInt8(ascii: "<"), bytes[index...].starts(with: pattern) {
                let after = index + pattern.count
                if after >= bytes.count || [UInt8(ascii: " "), UInt8(ascii: "/"), UInt8(ascii: ">"), UInt8(ascii: "\n"),
                                            UInt8(ascii: "\t"), UInt8(ascii: "\r")].contains(bytes[after]) {
                    return position(of: index)
                }
            }
            index -= 1
        }
        return (line, 1)
    }
}
