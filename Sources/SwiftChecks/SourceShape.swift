import AuditModel

/// The shape of a Swift file's nesting, measured from its bytes before SwiftParser sees it.
///
/// SwiftParser recurses once per nesting level in places its `maximumNestingLevel` does not reach
/// (the lookahead that tells an inline-array type `[N of T]` from an array literal is exponential
/// in the depth of `[`: 18 levels take a second, 25 never finish; 600 `Array<` or 20,000
/// `else if` overflow the stack), and SwiftSyntax's visitors, ours among them, recurse once per
/// tree level, so a 200,000-link member chain overflows the stack after a clean parse. A crash or
/// hang cannot be caught inside the process, so a file whose shape is past what real code does is
/// refused before parsing, with the reason and the line. One linear pass, no allocation per byte.
public struct SourceShape: Sendable, Equatable {
    /// What a file may reach. The defaults sit far above real apps (docs/operations.md lists the
    /// corpus maxima they were chosen against) and far below where the parser or a walk fails.
    public struct Limits: Sendable, Equatable {
        /// Open `(`, `[`, `{`, string literals and interpolations, all kinds together.
        public var nesting = 100
        /// Open `[`: the parser's exponential lookahead.
        public var squareBrackets = 10
        /// Open `<` of generic arguments on one line (`Array<Array<…>>`).
        public var angleBrackets = 24
        /// Terms of one unbroken expression at one depth: names, `.member` links, `!`/`?`, closed
        /// groups (`f()()`, `a[0][0]`, trailing closures), prefix keywords (`try`, `await`,
        /// `any`), `->`. A separator (`,`, `;`, `:`, `=`, a spaced binary operator, a new line
        /// that starts a new statement) ends it. Each term may be a tree level or a level of the
        /// parser's recursion, and rules that look along a chain cost its length squared.
        public var chainLinks = 600
        /// `#if` open at once.
        public var conditionalBlocks = 40
        /// `else if` links of one `if` statement: each nests the next.
        public var elseIfLinks = 200

        public init() {}
    }

    public enum Excess: Sendable, Equatable, CustomStringConvertible {
        case nesting(depth: Int, line: Int, limit: Int)
        case squareBrackets(depth: Int, line: Int, limit: Int)
        case angleBrackets(depth: Int, line: Int, limit: Int)
        case chainLinks(count: Int, line: Int, limit: Int)
        case elseIfLinks(count: Int, line: Int, limit: Int)
        case conditionalBlocks(depth: Int, line: Int, limit: Int)

        public var line: Int {
            switch self {
            case .nesting(_, let line, _), .squareBrackets(_, let line, _), .angleBrackets(_, let line, _),
                 .chainLinks(_, let line, _), .elseIfLinks(_, let line, _), .conditionalBlocks(_, let line, _): line
            }
        }

        public var description: String {
            switch self {
            case .nesting(_, let line, let limit):
                "nested more than \(limit) levels deep (brackets, braces, strings) at line \(line); checking it could crash the parser"
            case .squareBrackets(let depth, let line, let limit):
                "\(depth) `[` open at once at line \(line), over the \(limit) the parser handles in reasonable time"
            case .angleBrackets(let depth, let line, let limit):
                "\(depth) generic `<` open at once at line \(line), over the limit of \(limit); checking it could crash the parser"
            case .chainLinks(_, let line, let limit):
                "an expression of more than \(limit) chained terms (member or modifier chain, calls, `try`/`await`, `!`) at line \(line); checking it could crash or stall the parser and the checks"
            case .conditionalBlocks(let depth, let line, let limit):
                "\(depth) `#if` blocks open at once at line \(line), over the limit of \(limit); checking it could crash the parser"
            case .elseIfLinks(let count, let line, let limit):
                "an `if` statement with more than \(limit) `else if` branches at line \(line) (\(count) seen); checking it could crash the parser"
            }
        }
    }

    /// The deepest values seen (up to the first excess), for measuring real code.
    public var maxNesting = 0
    public var maxSquareBrackets = 0
    public var maxAngleBrackets = 0
    public var maxChainLinks = 0
    public var maxElseIfLinks = 0
    public var maxConditionalBlocks = 0
    /// The first limit passed, if any.
    public var excess: Excess?

    /// Measures `source` against `limits`, stopping at the first excess.
    public static func measure(_ source: String, limits: Limits = Limits()) -> SourceShape {
        var source = source
        return source.withUTF8 { measure($0, limits: limits) }
    }

    public static func measure(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits = Limits()) -> SourceShape {
        var scanner = ShapeScanner(limits: limits)
        scanner.run(bytes)
        return scanner.shape
    }
}

/// The byte scanner behind `SourceShape`: a small Swift lexer that knows comments, string
/// literals (plain, multi-line, raw) and interpolations well enough to count real brackets.
private struct ShapeScanner {
    /// One open construct. Strings are on the same stack as brackets so that the `)` of an
    /// interpolation returns to the string it interrupted.
    enum Open {
        case paren, square, brace
        case interpolation
        case string(multiline: Bool, hashes: Int)
    }

    /// Keywords that take what follows as their operand: a line break after one continues the
    /// expression, and a run of them nests in the parser.
    private static let prefixKeywords: [[UInt8]] = (["try", "await", "any", "some", "each", "inout", "consume", "copy",
                                                            "borrow", "repeat", "throws", "rethrows", "async", "as", "is"] as [String]).map { Array($0.utf8) }

    let limits: SourceShape.Limits
    var shape = SourceShape()
    var stack: [Open] = []
    var squareDepth = 0
    var conditionalDepth = 0
    var line = 1
    var angleDepth = 0
    /// Term and `else if` counters per nesting depth (index = `stack.count`).
    var terms: [Int] = [0]
    var elseIf: [Int] = [0]
    /// The previous code token was `else`, for `else if`.
    var previousWordWasElse = false
    /// A line break came since the last code token; whether it ends the expression is decided
    /// by the next token.
    var pendingLineBreak = false
    /// The previous code token takes an operand (`try`, `->`, a binary operator): a line break
    /// after it continues the expression.
    var expectsOperand = false

    init(limits: SourceShape.Limits) { self.limits = limits }

    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        let count = bytes.count
        while index < count, shape.excess == nil {
            if case .string(let multiline, let hashes)? = stack.last {
                index = skipStringBody(bytes, from: index, multiline: multiline, hashes: hashes)
                continue
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                angleDepth = 0
                pendingLineBreak = true
                index += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "/") where index + 1 < count && bytes[index + 1] == UInt8(ascii: "/"):
                while index < count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where index + 1 < count && bytes[index + 1] == UInt8(ascii: "*"):
                index = skipBlockComment(bytes, from: index)
            case UInt8(ascii: "#") where startsRawString(bytes, at: index):
                term(continuing: false)
                var hashes = 0
                while bytes[index] == UInt8(ascii: "#") { hashes += 1; index += 1 }
                index = openString(bytes, at: index, hashes: hashes)
            case UInt8(ascii: "#"):
                let end = skipWord(bytes, from: index + 1)
                let word = bytes[(index + 1)..<end]
                if word.elementsEqual("if".utf8) {
                    conditionalDepth += 1
                    shape.maxConditionalBlocks = max(shape.maxConditionalBlocks, conditionalDepth)
                    if conditionalDepth > limits.conditionalBlocks {
                        shape.excess = .conditionalBlocks(depth: conditionalDepth, line: line, limit: limits.conditionalBlocks)
                    }
                } else if word.elementsEqual("endif".utf8), conditionalDepth > 0 {
                    conditionalDepth -= 1
                }
                term(continuing: false)
                previousWordWasElse = false
                index = max(end, index + 1)
            case UInt8(ascii: "\""):
                term(continuing: false)
                index = openString(bytes, at: index, hashes: 0)
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                // The group is one term of the expression around it (`f()()`, `a[0][0]`, a
                // trailing closure); its inside counts at the next depth.
                term(continuing: false)
                push(byte == UInt8(ascii: "(") ? .paren : byte == UInt8(ascii: "[") ? .square : .brace)
                index += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                pop()
                index += 1
            case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"):
                separate()
                index += 1
            case UInt8(ascii: ".") where index + 1 < count && Self.isWordStart(bytes[index + 1]):
                // `.name`, on this line or the next: one link of a postfix chain.
                term(continuing: true)
                previousWordWasElse = false
                index = skipWord(bytes, from: index + 1)
            case _ where Self.isOperatorByte(byte):
                index = operatorRun(bytes, from: index)
            case _ where ASCII.isDigit(byte):
                term(continuing: false)
                previousWordWasElse = false
                index += 1
                while index < count, Self.isWordByte(bytes[index])
                        || (bytes[index] == UInt8(ascii: ".") && index + 1 < count && ASCII.isDigit(bytes[index + 1])) { index += 1 }
            case _ where Self.isWordStart(byte):
                let end = skipWord(bytes, from: index)
                word(bytes, index..<end)
                index = end
            default:
                // `@`, `\`, and bytes Swift does not use: a term.
                term(continuing: false)
                previousWordWasElse = false
                index += 1
            }
        }
    }

    /// Adds a term to the expression at the current depth. A line break before it ends the
    /// expression unless the term continues it (`.modifier` on the next line) or the previous
    /// token asked for an operand.
    private mutating func term(continuing: Bool) {
        let depth = stack.count
        if pendingLineBreak, !continuing, !expectsOperand { terms[depth] = 0 }
        pendingLineBreak = false
        expectsOperand = false
        terms[depth] += 1
        shape.maxChainLinks = max(shape.maxChainLinks, terms[depth])
        if terms[depth] > limits.chainLinks {
            shape.excess = .chainLinks(count: terms[depth], line: line, limit: limits.chainLinks)
        }
    }

    private mutating func separate() {
        terms[stack.count] = 0
        pendingLineBreak = false
        expectsOperand = true
        previousWordWasElse = false
    }

    /// `+`, `==`, `!`, `?.`, `->`, `<`: a spaced binary operator (or `=`) separates terms;
    /// postfix `!`/`?` and prefix operators are terms; `->` and a trailing operator take an
    /// operand on the next line.
    private mutating func operatorRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var end = start
        while end < bytes.count, Self.isOperatorByte(bytes[end]) {
            // `a?.b`, `a!.b`: the `.name` is a chain link of its own.
            if bytes[end] == UInt8(ascii: "."), end + 1 < bytes.count, Self.isWordStart(bytes[end + 1]) { break }
            end += 1
        }
        let spaceBefore = start == 0 || Self.isSpace(bytes[start - 1])
        let spaceAfter = end >= bytes.count || Self.isSpace(bytes[end])
        let text = bytes[start..<end]
        if text.elementsEqual("->".utf8) {
            term(continuing: true)
            expectsOperand = true
        } else if text.elementsEqual("=".utf8) || (spaceBefore && spaceAfter) {
            separate()
        } else if text.allSatisfy({ $0 == UInt8(ascii: "!") || $0 == UInt8(ascii: "?") }), !spaceBefore {
            for _ in text { term(continuing: true) }
        } else {
            // Generic argument lists follow a name with no space: `Array<Int>`, `Foo.Bar<T>`.
            for (offset, byte) in text.enumerated() {
                if byte == UInt8(ascii: "<"), offset == 0, !spaceBefore,
                   start > 0, Self.isWordByte(bytes[start - 1]) || bytes[start - 1] == UInt8(ascii: ">") {
                    angleDepth += 1
                    shape.maxAngleBrackets = max(shape.maxAngleBrackets, angleDepth)
                    if angleDepth > limits.angleBrackets {
                        shape.excess = .angleBrackets(depth: angleDepth, line: line, limit: limits.angleBrackets)
                    }
                } else if byte == UInt8(ascii: ">"), angleDepth > 0 {
                    angleDepth -= 1
                }
            }
            term(continuing: !spaceBefore)
            expectsOperand = spaceAfter
        }
        previousWordWasElse = false
        return end
    }

    /// A name or keyword in code: `if` after `else` extends an `else if` chain, any other `if`
    /// starts one.
    private mutating func word(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        let depth = stack.count
        let text = bytes[range]
        if text.elementsEqual("if".utf8) {
            if previousWordWasElse {
                elseIf[depth] += 1
                shape.maxElseIfLinks = max(shape.maxElseIfLinks, elseIf[depth])
                if elseIf[depth] > limits.elseIfLinks {
                    shape.excess = .elseIfLinks(count: elseIf[depth], line: line, limit: limits.elseIfLinks)
                }
            } else {
                elseIf[depth] = 0
            }
        }
        term(continuing: false)
        previousWordWasElse = text.elementsEqual("else".utf8)
        if range.count <= 8, Self.prefixKeywords.contains(where: { text.elementsEqual($0) }) { expectsOperand = true }
    }

    private mutating func push(_ open: Open) {
        stack.append(open)
        if terms.count <= stack.count {
            terms.append(0)
            elseIf.append(0)
        } else {
            terms[stack.count] = 0
            elseIf[stack.count] = 0
        }
        if case .square = open {
            squareDepth += 1
            shape.maxSquareBrackets = max(shape.maxSquareBrackets, squareDepth)
            if squareDepth > limits.squareBrackets {
                shape.excess = .squareBrackets(depth: squareDepth, line: line, limit: limits.squareBrackets)
            }
        }
        shape.maxNesting = max(shape.maxNesting, stack.count)
        if stack.count > limits.nesting {
            shape.excess = .nesting(depth: stack.count, line: line, limit: limits.nesting)
        }
        previousWordWasElse = false
        pendingLineBreak = false
        expectsOperand = false
    }

    /// A closing bracket. An unbalanced one (a syntax error) closes nothing.
    private mutating func pop() {
        if let last = stack.last {
            if case .string = last { return }
            if case .square = last { squareDepth -= 1 }
            stack.removeLast()
        }
        previousWordWasElse = false
        pendingLineBreak = false
        expectsOperand = false
    }

    private mutating func openString(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, hashes: Int) -> Int {
        let quote = UInt8(ascii: "\"")
        let multiline = start + 2 < bytes.count && bytes[start + 1] == quote && bytes[start + 2] == quote
        push(.string(multiline: multiline, hashes: hashes))
        return start + (multiline ? 3 : 1)
    }

    /// Reads a string literal's text up to its end or to an interpolation, which is pushed.
    private mutating func skipStringBody(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, multiline: Bool, hashes: Int) -> Int {
        var index = start
        let count = bytes.count
        let quote = UInt8(ascii: "\"")
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                // A single-line string cannot span lines: the literal is unterminated; go on as code.
                if !multiline {
                    stack.removeLast()
                    pendingLineBreak = true
                    return index + 1
                }
            } else if byte == UInt8(ascii: "\\"), hasHashes(bytes, at: index + 1, hashes) {
                let after = index + 1 + hashes
                if after < count, bytes[after] == UInt8(ascii: "(") {
                    push(.interpolation)
                    return after + 1
                }
                index = after + 1
                continue
            } else if byte == quote {
                let closes = multiline ? index + 2 < count && bytes[index + 1] == quote && bytes[index + 2] == quote : true
                let quoteEnd = index + (multiline ? 3 : 1)
                if closes, hasHashes(bytes, at: quoteEnd, hashes) {
                    stack.removeLast()
                    return quoteEnd + hashes
                }
            }
            index += 1
        }
        return index
    }

    private func hasHashes(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, _ hashes: Int) -> Bool {
        guard hashes > 0 else { return true }
        guard start + hashes <= bytes.count else { return false }
        for offset in 0..<hashes where bytes[start + offset] != UInt8(ascii: "#") { return false }
        return true
    }

    private func startsRawString(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        var index = start
        while index < bytes.count, bytes[index] == UInt8(ascii: "#") { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "\"")
    }

    /// `/* … */`, nested as Swift nests them.
    private mutating func skipBlockComment(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start + 2
        var depth = 1
        let count = bytes.count
        while index < count {
            if bytes[index] == UInt8(ascii: "\n") {
                line += 1
                pendingLineBreak = true
            } else if bytes[index] == UInt8(ascii: "*"), index + 1 < count, bytes[index + 1] == UInt8(ascii: "/") {
                depth -= 1
                index += 2
                if depth == 0 { return index }
                continue
            } else if bytes[index] == UInt8(ascii: "/"), index + 1 < count, bytes[index + 1] == UInt8(ascii: "*") {
                depth += 1
                index += 2
                continue
            }
            index += 1
        }
        return index
    }

    private func skipWord(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count, Self.isWordByte(bytes[index]) { index += 1 }
        return index
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    /// Swift's ASCII operator characters.
    static func isOperatorByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "!"), UInt8(ascii: "*"),
             UInt8(ascii: "%"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "^"),
             UInt8(ascii: "~"), UInt8(ascii: "?"), UInt8(ascii: "."): true
        default: false
        }
    }

    /// Letters, `_`, `$`, `` ` `` and any non-ASCII byte (identifiers may be Unicode).
    static func isWordStart(_ byte: UInt8) -> Bool {
        ASCII.isLetter(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "`") || byte >= 0x80
    }

    static func isWordByte(_ byte: UInt8) -> Bool { isWordStart(byte) || ASCII.isDigit(byte) }
}
