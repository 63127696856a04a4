import SwiftChecks
import Testing

/// Shapes of Swift that crash or stall SwiftParser or a recursive syntax walk (each one did, on
/// the scanner before the guard) are refused before parsing; the shapes real apps have are not.
struct SourceShapeTests {
    /// Each hostile file, with the kind of excess it must be refused for.
    static let hostile: [(name: String, source: String, expected: String)] = [
        ("600 nested Array<", "let x: " + String(repeating: "Array<", count: 600) + "Int" + String(repeating: ">", count: 600), "generic `<`"),
        ("2,000 [", "let x = " + String(repeating: "[", count: 2000) + String(repeating: "]", count: 2000), "`[` open"),
        ("25 nested array literals", "let x = " + String(repeating: "[", count: 25) + "1" + String(repeating: "]", count: 25), "`[` open"),
        ("200,000-link member chain", "let x = a" + String(repeating: ".b", count: 200_000), "chained terms"),
        ("50,000-modifier chain", "var body: some View { Text(\"a\")" + String(repeating: ".padding()", count: 50_000) + " }", "chained terms"),
        ("10,000 font modifiers", "var body: some View { Text(\"a\")" + String(repeating: "\n    .font(.system(size: 12))", count: 10_000) + " }", "chained terms"),
        ("5,000 unterminated interpolations", "let s = \"" + String(repeating: "\\(", count: 5000), "nested more than"),
        ("2,000 parentheses", "let x = " + String(repeating: "(", count: 2000) + "1" + String(repeating: ")", count: 2000), "nested more than"),
        ("20,000 else if", "func f() { if a {} " + String(repeating: "else if a {}\n", count: 20_000) + "}", "else if"),
        ("50,000 try", "let x = " + String(repeating: "try ", count: 50_000) + "f()", "chained terms"),
        ("50,000 await on lines of their own", "let x = " + String(repeating: "await\n", count: 50_000) + "f()", "chained terms"),
        ("100,000 force unwraps", "let x = a" + String(repeating: "!", count: 100_000), "chained terms"),
        ("100,000 optional marks", "let x: Int" + String(repeating: "?", count: 100_000) + " = nil", "chained terms"),
        ("5,000 nested #if", String(repeating: "#if A\n", count: 5000) + "let x = 1\n" + String(repeating: "#endif\n", count: 5000), "`#if`"),
        ("20,000 function arrows", "let x: " + String(repeating: "(Int) -> ", count: 20_000) + "Int", "chained terms"),
        ("50,000 trailing closures", "let x = f" + String(repeating: " { $0 }", count: 50_000), "chained terms"),
        ("50,000 subscripts", "let x = a" + String(repeating: "[0]", count: 50_000), "chained terms"),
        ("50,000 calls", "let x = f" + String(repeating: "()", count: 50_000), "chained terms"),
        ("50,000 any", "let x: " + String(repeating: "any ", count: 50_000) + "P", "chained terms"),
        ("50,000 macro names", "let x = " + String(repeating: "#a", count: 50_000), "chained terms"),
    ]

    @Test(arguments: hostile.indices)
    func refusesShapesThatCrashOrStallTheParser(_ index: Int) {
        let (name, source, expected) = Self.hostile[index]
        let shape = SourceShape.measure("import SwiftUI\n" + source + "\n")
        #expect(shape.excess != nil, "\(name) must be refused")
        #expect(shape.excess?.description.contains(expected) == true, "\(name): \(shape.excess?.description ?? "accepted")")
    }

    /// What real apps write, at or beyond the deepest seen in the development corpus (nesting
    /// 15, `[` 5, `<` 2, 48 terms, 5 `else if`): none of it may be refused.
    static let real: [(name: String, source: String)] = [
        ("a long SwiftUI modifier chain", """
            var body: some View {
                VStack(alignment: .leading, spacing: 8) {
                    Text(title).font(.headline).foregroundStyle(.primary)
                }
            \(String(repeating: "    .padding(.horizontal, 16)\n    .background(Color.secondary.opacity(0.1))\n", count: 60))
            }
            """),
        ("nested JSON-like literal", "let json: [String: Any] = [\"a\": [[\"b\": [[\"c\": [1, 2, [3, [4]]]]]]]]"),
        ("a 5,000-entry dictionary", "let table = [" + (0..<5000).map { "\"key\($0)\": \($0)" }.joined(separator: ", ") + "]"),
        ("a long string concatenation", "let s = " + Array(repeating: "\"part\"", count: 3000).joined(separator: " + ")),
        ("many statements in one body", "func f() {\n" + String(repeating: "    label.text = model.title\n    view.addSubview(label)\n", count: 3000) + "}"),
        ("try await and casts", "let value = try await client.fetch(request).decode(as: Model.self) as? Model ?? fallback"),
        ("nested #if", "#if os(iOS)\n#if DEBUG\n#if targetEnvironment(simulator)\nlet a = 1\n#endif\n#endif\n#endif"),
        ("brackets inside strings and comments", "let s = \"[[[[[[[[[[[[(((((\" // ]]]]]]]]]]]]]]\n/* [[[[[[[[[[[[[[ /* nested */ [[[[[ */\nlet r = #\"[[[[[[[[[[[[\\(\"#"),
        ("interpolation with brackets", "let s = \"\\(items[0].name) costs \\(format(price, [\"a\": [1]]))\""),
        ("multi-line string", "let text = \"\"\"\n  [[[[[[[[[[[[[[[[\n  \\(value)\n  \"\"\""),
        ("a long switch over enum cases", "switch x {\n" + (0..<800).map { "case .case\($0): return \($0)" }.joined(separator: "\n") + "\n}"),
        ("an array of 2,000 enum members", "let colors: [Color] = [" + Array(repeating: ".red, .blue", count: 1000).joined(separator: ", ") + "]"),
        ("generic types", "let cache: Dictionary<String, Array<Optional<Result<Model, Error>>>> = [:]"),
        ("comparisons without spaces", "if a<b && c<d && e<f && g<h { }"),
        ("an else-if ladder", "if a { } else if b { } else if c { } else if d { } else if e { } else { }"),
        ("optional chains", "let x = a?.b?.c!.d?.e?.f?.g"),
        ("range operators and number literals", "for i in 0..<10 { let x = 1.5e3 + 0x1F + 1_000.25 }"),
    ]

    @Test(arguments: real.indices)
    func acceptsTheShapesRealCodeHas(_ index: Int) {
        let (name, source) = Self.real[index]
        let shape = SourceShape.measure("import SwiftUI\n" + source + "\n")
        #expect(shape.excess == nil, "\(name): \(shape.excess?.description ?? "")")
    }

    @Test func namesTheLineOfTheExcess() {
        let source = "import SwiftUI\n\nlet fine = [1]\nlet x = " + String(repeating: "[", count: 11) + "1" + String(repeating: "]", count: 11)
        #expect(SourceShape.measure(source).excess?.line == 4)
    }

    @Test func measuresWhatItSawUpToTheLimits() {
        let shape = SourceShape.measure("let a = [[1]]\nlet b = f(g(h(1)))\nlet c = x.y.z\n")
        #expect(shape.excess == nil)
        #expect(shape.maxSquareBrackets == 2)
        #expect(shape.maxNesting == 3)
        #expect(shape.maxChainLinks >= 3)
    }
}
