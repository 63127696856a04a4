/// Why an Interface Builder file could not be read. Each case names the file and what to do;
/// none of them stops the rest of a scan.
public enum InterfaceBuilderError: Error, CustomStringConvertible, Equatable, Sendable {
    case tooLarge(path: String, bytes: Int, limit: Int)
    /// `<!DOCTYPE` or `<!ENTITY`: Xcode never writes them, and entity expansion is how a small
    /// file becomes gigabytes in memory (the "billion laughs" attack).
    case declarationNotAllowed(path: String, declaration: String, line: Int)
    /// Not UTF-8 (`encoding` says what it is instead). libxml2 decodes UTF-16, UTF-32, UTF-7,
    /// EBCDIC and whatever the XML declaration names, and a DTD in any of them reads as plain
    /// bytes to a check that looks for `<!DOCTYPE`; Xcode writes only UTF-8.
    case notUTF8(path: String, encoding: String)
    case tooDeep(path: String, limit: Int, line: Int)
    case tooManyElements(path: String, limit: Int, line: Int)
    case malformed(path: String, line: Int, column: Int, reason: String)
    /// Well-formed XML whose root is not Interface Builder's `<document>`.
    case notInterfaceBuilder(path: String, root: String)

    public var path: String {
        switch self {
        case .tooLarge(let path, _, _), .declarationNotAllowed(let path, _, _), .notUTF8(let path, _), .tooDeep(let path, _, _),
             .tooManyElements(let path, _, _), .malformed(let path, _, _, _), .notInterfaceBuilder(let path, _):
            path
        }
    }

    /// The line the problem is on, when there is one.
    public var line: Int? {
        switch self {
        case .declarationNotAllowed(_, _, let line), .tooDeep(_, _, let line), .tooManyElements(_, _, let line),
             .malformed(_, let line, _, _):
            line
        case .tooLarge, .notUTF8, .notInterfaceBuilder:
            nil
        }
    }

    public var description: String {
        switch self {
        case .malformed(let path, let line, let column, _): "\(path):\(line):\(column): \(reason)"
        default: "\(path)\(line.map { ":\($0)" } ?? ""): \(reason)"
        }
    }

    /// What is wrong and what happens, without the location (a scan note carries that).
    public var reason: String {
        switch self {
        case .tooLarge(_, let bytes, let limit):
            "Interface Builder file is \(bytes) bytes, over the \(limit)-byte limit; it was not checked"
        case .declarationNotAllowed(_, let declaration, _):
            "\(declaration) declaration in an Interface Builder file; Xcode never writes one and entity expansion can exhaust memory, so the file was not checked"
        case .notUTF8(_, let encoding):
            "encoded as \(encoding), not UTF-8; Xcode writes Interface Builder files in UTF-8 and only UTF-8 is read, so that no encoding can hide a DTD from the check for one. The file was not checked"
        case .tooDeep(_, let limit, _):
            "elements nested more than \(limit) deep; Xcode documents are far shallower, so the file was not checked"
        case .tooManyElements(_, let limit, _):
            "more than \(limit) elements; the file was not checked"
        case .malformed(_, _, let column, let reason):
            "not well-formed XML at column \(column) (\(reason)); open it in Xcode to repair it. The file was not checked"
        case .notInterfaceBuilder(_, let root):
            "root element is <\(root)>, not Interface Builder's <document>; the file was not checked"
        }
    }
}

/// Bounds on what one Interface Builder file may cost to read.
public struct InterfaceBuilderLimits: Sendable, Equatable {
    public var maxBytes: Int
    public var maxDepth: Int
    public var maxElements: Int

    /// Large real storyboards are a few megabytes, about 40 levels deep, and under 200,000
    /// elements; these bounds leave room for them and stop anything pathological.
    public init(maxBytes: Int = 8_000_000, maxDepth: Int = 256, maxElements: Int = 500_000) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxElements = maxElements
    }
}
