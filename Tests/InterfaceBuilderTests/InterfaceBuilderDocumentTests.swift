import AuditModel
import Foundation
import InterfaceBuilder
import Testing

struct InterfaceBuilderDocumentTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/InterfaceBuilder")

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    /// 1-based line and column of `needle` in a fixture, found by plain text search.
    static func position(of needle: String, in name: String) throws -> (line: Int, column: Int) {
        let text = String(decoding: try bytes(name), as: UTF8.self)
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let range = line.range(of: needle) {
                return (index + 1, line.distance(from: line.startIndex, to: range.lowerBound) + 1)
            }
        }
        throw CocoaError(.fileReadCorruptFile)
    }

    @Test func readsAnIOSStoryboard() throws {
        let document = try InterfaceBuilderDocument(bytes: try Self.bytes("Checkout.storyboard"), path: "Checkout.storyboard")
        #expect(document.targetRuntime == "iOS.CocoaTouch")
        #expect(document.runtimePlatforms == PlatformSet([.iOS, .visionOS]))
        #expect(!document.isAppKit)
        #expect(document.views.map(\.kind) == ["view", "label", "label", "label", "button", "button", "switch", "imageView", "button"])

        let delete = try #require(document.views.first { $0.id == "Del-BT-001" })
        let expected = try Self.position(of: "<button opaque=\"NO\" contentMode=\"scaleToFill\" contentHorizontalAlignment=\"center\" contentVerticalAlignment=\"center\" buttonType=\"system\" lineBreakMode=\"middleTruncation\" translatesAutoresizingMaskIntoConstraints=\"NO\" id=\"Del-BT-001\"", in: "Checkout.storyboard")
        #expect((delete.line, delete.column) == (expected.line, expected.column))
        #expect(delete.frame == InterfaceBuilderRect(x: 16, y: 201, width: 30, height: 30))
        #expect(delete.fixedWidth == 30 && delete.fixedHeight == 30)
        #expect(delete.image == "ic_trash_24" && !delete.imageIsSystem && delete.isImageOnly && delete.hasAction)
        #expect(delete.accessibility.label == nil)
        #expect(document.views[delete.superview ?? -1].id == "Chk-VW-001")

        let favorite = try #require(document.views.first { $0.id == "Fav-BT-001" })
        #expect(favorite.imageIsSystem)
        #expect(favorite.accessibility.label == "Favorite button")

        let eta = try #require(document.views.first { $0.id == "Eta-LB-001" })
        #expect(eta.font?.textStyle == "body" && eta.adjustsFontForContentSizeCategory)
        #expect(eta.numberOfLines == 1 && eta.fixedHeight == 21)
        let title = try #require(document.views.first { $0.id == "Ttl-LB-001" })
        #expect(title.font?.textStyle == "largeTitle" && title.numberOfLines == 0)
        #expect(title.accessibility.traits == ["staticText", "header"])
        let total = try #require(document.views.first { $0.id == "Tot-LB-001" })
        #expect(total.font == InterfaceBuilderFont(type: "boldSystem", style: nil, pointSize: 20, name: nil, metaFont: nil))
        #expect(total.font?.isFixedSize == true)

        let gift = try #require(document.views.first { $0.id == "Gft-SW-001" })
        #expect(gift.accessibility.isElement == false && gift.isControl)
        let banner = try #require(document.views.first { $0.id == "Ban-IV-001" })
        #expect(banner.hasGestureRecognizers && banner.accessibility.isElement == nil)
        let pay = try #require(document.views.first { $0.id == "Pay-BT-001" })
        #expect(pay.title == "Pay now" && pay.hasBezel && pay.fixedHeight == 50 && pay.fixedWidth == nil)
        // Constraints between two items size neither.
        #expect(document.views.first { $0.id == "Ttl-LB-001" }?.fixedWidth == nil)
    }

    @Test func readsAnAppKitXib() throws {
        let document = try InterfaceBuilderDocument(bytes: try Self.bytes("Inspector.xib"), path: "Inspector.xib")
        #expect(document.runtimePlatforms == PlatformSet(.macOS) && document.isAppKit)
        let add = try #require(document.views.first { $0.id == "Add-BT-001" })
        #expect(add.isImageOnly && add.imageIsSystem && add.cellAttributes["bezelStyle"] == "texturedRounded")
        #expect(add.hasAction && add.width == 28 && add.height == 28)
        let filter = try #require(document.views.first { $0.id == "Flt-BT-001" })
        #expect(filter.accessibility.label == "Filter" && !filter.imageIsSystem)
        let checkbox = try #require(document.views.first { $0.id == "Hid-BT-001" })
        #expect(!checkbox.isImageOnly && checkbox.title == "Show hidden files")
        let name = try #require(document.views.first { $0.id == "Nam-TF-001" })
        #expect(name.font?.metaFont == "systemBold" && name.font?.pointSize == 13)
        let done = try #require(document.views.first { $0.id == "Don-BT-001" })
        #expect(done.hasBezel && !done.isImageOnly)
        // The window is not a view; its content view is.
        #expect(!document.views.contains { $0.kind == "window" })
        #expect(document.views.first?.id == "Ins-CV-001")
    }

    @Test func refusesEntityExpansionBeforeParsing() throws {
        let started = Date()
        #expect(throws: InterfaceBuilderError.declarationNotAllowed(path: "BillionLaughs.xib", declaration: "<!DOCTYPE", line: 2)) {
            try InterfaceBuilderDocument(bytes: try Self.bytes("BillionLaughs.xib"), path: "BillionLaughs.xib")
        }
        #expect(Date().timeIntervalSince(started) < 5)
        // A lone ENTITY declaration is refused too; a DOCTYPE inside a comment is only text.
        let entity = "<?xml version=\"1.0\"?>\n<!ENTITY x \"y\">\n<document/>"
        #expect(throws: InterfaceBuilderError.declarationNotAllowed(path: "a.xib", declaration: "<!ENTITY", line: 2)) {
            try InterfaceBuilderDocument(bytes: Array(entity.utf8), path: "a.xib")
        }
        let commented = "<?xml version=\"1.0\"?>\n<!-- <!DOCTYPE x> -->\n<document targetRuntime=\"iOS.CocoaTouch\"><![CDATA[<!ENTITY>]]></document>"
        let document = try InterfaceBuilderDocument(bytes: Array(commented.utf8), path: "b.xib")
        #expect(document.views.isEmpty && document.runtimePlatforms == PlatformSet([.iOS, .visionOS]))
    }

    /// A storyboard whose one label's text is the internal entity `e`, declared in a DTD that
    /// `prefix` (placed between the XML declaration and the DOCTYPE) may hide from a naive check.
    static func entityStoryboard(prefix: String, encoding: String = "UTF-8", entityValue: String = "Injected",
                                 labels: Int = 1) -> String {
        "<?xml version=\"1.0\" encoding=\"\(encoding)\"?>\n\(prefix)<!DOCTYPE document [<!ENTITY e \"\(entityValue)\">]>\n<!-- -->\n"
            + "<document type=\"com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB\" targetRuntime=\"iOS.CocoaTouch\"><objects>\n"
            + (0..<labels).map { "<label text=\"&e;\" id=\"L\($0)\"><rect key=\"frame\" x=\"0\" y=\"0\" width=\"10\" height=\"10\"/></label>\n" }.joined()
            + "</objects></document>\n"
    }

    /// The error reading `bytes` gives; records an issue (with what was read) when it parses.
    static func refusal(_ bytes: [UInt8], path: String) -> InterfaceBuilderError? {
        do {
            let document = try InterfaceBuilderDocument(bytes: bytes, path: path)
            Issue.record("\(path) was read: label texts \(document.views.compactMap { document.element($0)["text"]?.prefix(20) })")
            return nil
        } catch {
            return error
        }
    }

    @Test func refusesADoctypeBehindACommentOpenerInsideAProcessingInstruction() throws {
        // `<?x <!-- ?>` is a processing instruction, not a comment: the DOCTYPE after it is real.
        let text = Self.entityStoryboard(prefix: "<?x <!-- ?>\n")
        #expect(Self.refusal(Array(text.utf8), path: "PI.storyboard")
            == .declarationNotAllowed(path: "PI.storyboard", declaration: "<!DOCTYPE", line: 3))
        // The same trick with the quote characters and `>` a tag or PI may hold.
        let quoted = Self.entityStoryboard(prefix: "<?x a='<!--' b=\">\" ?>\n")
        #expect(Self.refusal(Array(quoted.utf8), path: "Q.storyboard")
            == .declarationNotAllowed(path: "Q.storyboard", declaration: "<!DOCTYPE", line: 3))
    }

    @Test func refusesDocumentsNotInUTF8WhateverTheyHide() throws {
        let text = Self.entityStoryboard(prefix: "", encoding: "UTF-16")
        let encodings: [(name: String, bytes: [UInt8])] = [
            ("UTF-16 LE", [0xFF, 0xFE] + Array(text.data(using: .utf16LittleEndian)!)),
            ("UTF-16 BE", [0xFE, 0xFF] + Array(text.data(using: .utf16BigEndian)!)),
            ("UTF-32 LE", [0xFF, 0xFE, 0x00, 0x00] + Array(Self.entityStoryboard(prefix: "", encoding: "UTF-32").data(using: .utf32LittleEndian)!)),
            // Without a byte-order mark libxml2 still detects UTF-16 from `<?` and its NULs.
            ("UTF-16 LE", Array(text.data(using: .utf16LittleEndian)!)),
        ]
        for (name, bytes) in encodings {
            let error = try #require(Self.refusal(bytes, path: "Wide.storyboard"), "\(name)")
            #expect(error.path == "Wide.storyboard" && error.reason.contains(name) && error.reason.contains("UTF-8"), "\(name): \(error)")
        }
        // ASCII bytes that declare UTF-7: libxml2 would decode `+ADw-!DOCTYPE` as `<!DOCTYPE`.
        let utf7 = "<?xml version=\"1.0\" encoding=\"UTF-7\"?>\n+ADw-!DOCTYPE document +AFs-+ADw-!ENTITY e +ACI-Injected+ACI-+AD4-+AF0-+AD4-\n"
            + "<document targetRuntime=\"iOS.CocoaTouch\"><objects><label text=\"&e;\" id=\"L\"/></objects></document>\n"
        let error = try #require(Self.refusal(Array(utf7.utf8), path: "Seven.xib"))
        #expect(error.reason.contains("UTF-7") && error.reason.contains("UTF-8"), "\(error)")
        // Invalid UTF-8 is refused before parsing too.
        #expect(Self.refusal(Array("<document targetRuntime=\"iOS.CocoaTouch\">".utf8) + [0xC3, 0x28] + Array("</document>".utf8),
                             path: "Latin.xib")?.reason.contains("UTF-8") == true)
    }

    @Test func refusesAMegabyteEntityBlowUpQuicklyAndWithoutExpandingIt() throws {
        // 1 MB of entity text used by 100 labels: 100 MB once expanded.
        let text = Self.entityStoryboard(prefix: "<?x <!-- ?>\n", entityValue: String(repeating: "lol ", count: 250_000), labels: 100)
        let started = Date()
        #expect(Self.refusal(Array(text.utf8), path: "Laughs.storyboard")
            == .declarationNotAllowed(path: "Laughs.storyboard", declaration: "<!DOCTYPE", line: 3))
        #expect(Date().timeIntervalSince(started) < 5, "refusing took \(Date().timeIntervalSince(started)) s")
    }

    @Test func quotesAtMostEightyCharactersOfWhatTheFileSays() throws {
        let root = String(repeating: "r", count: 40_000)
        let error = try #require(Self.refusal(Array("<\(root)/>".utf8), path: "Root.xib"))
        #expect(error.reason.count < 300 && error.reason.contains(String(root.prefix(80)) + "…"), "\(error.reason.prefix(300))")
        let declaration = String(repeating: "D", count: 40_000)
        let declared = try #require(Self.refusal(Array("<!\(declaration)>\n<document/>".utf8), path: "Decl.xib"))
        #expect(declared.reason.count < 300, "\(declared.reason.prefix(300))")
    }

    @Test func reportsMalformedXMLWithItsLine() throws {
        do {
            _ = try InterfaceBuilderDocument(bytes: try Self.bytes("Malformed.storyboard"), path: "Malformed.storyboard")
            Issue.record("a malformed storyboard was accepted")
        } catch let error as InterfaceBuilderError {
            guard case .malformed(let path, let line, _, let reason) = error else {
                Issue.record("expected .malformed, got \(error)")
                return
            }
            #expect(path == "Malformed.storyboard")
            // `</subviews>` closes while `<button>` (line 10) is still open.
            #expect(line == 12)
            #expect(!reason.isEmpty)
            #expect(error.description.contains("Malformed.storyboard:12:") && error.description.contains("not checked"))
        } catch {
            Issue.record("unexpected error type: \(error)")
        }
        #expect(throws: InterfaceBuilderError.self) { try InterfaceBuilderDocument(bytes: [], path: "Empty.xib") }
        #expect(throws: InterfaceBuilderError.self) {
            try InterfaceBuilderDocument(bytes: Array("<document><view></document>".utf8), path: "Cut.xib")
        }
    }

    @Test func boundsDepthCountAndSize() throws {
        let deep = "<document>" + String(repeating: "<view>", count: 300) + String(repeating: "</view>", count: 300) + "</document>"
        #expect(throws: InterfaceBuilderError.tooDeep(path: "Deep.xib", limit: 256, line: 1)) {
            try InterfaceBuilderDocument(bytes: Array(deep.utf8), path: "Deep.xib")
        }
        let wide = "<document>\n" + String(repeating: "<view/>\n", count: 50) + "</document>"
        #expect(throws: InterfaceBuilderError.tooManyElements(path: "Wide.xib", limit: 20, line: 21)) {
            try InterfaceBuilderDocument(bytes: Array(wide.utf8), path: "Wide.xib", limits: InterfaceBuilderLimits(maxElements: 20))
        }
        #expect(throws: InterfaceBuilderError.tooLarge(path: "Big.xib", bytes: 61, limit: 10)) {
            try InterfaceBuilderDocument(bytes: Array(wide.utf8.prefix(61)), path: "Big.xib", limits: InterfaceBuilderLimits(maxBytes: 10))
        }
        #expect(throws: InterfaceBuilderError.notInterfaceBuilder(path: "Plist.xib", root: "plist")) {
            try InterfaceBuilderDocument(bytes: Array("<plist version=\"1.0\"><dict/></plist>".utf8), path: "Plist.xib")
        }
    }

    @Test func columnsCountUnicodeScalarsAndMultiLineTags() throws {
        let text = "<document targetRuntime=\"MacOSX.Cocoa\">\n  <!-- é -->\n  <view id=\"é-1\"\n        hidden=\"YES\">\n    <rect key=\"frame\" x=\"0\" y=\"0\" width=\"1\" height=\"1\"/>\n  </view><view id=\"b\"><rect key=\"frame\" width=\"2\" height=\"2\"/></view>\n</document>"
        let document = try InterfaceBuilderDocument(bytes: Array(text.utf8), path: "c.xib")
        #expect(document.views.map { "\($0.id) \($0.line):\($0.column)" } == ["é-1 3:3", "b 6:10"])
        #expect(document.views[0].isHidden)
        #expect(document.text(ofLine: 3) == "  <view id=\"é-1\"")
    }
}
