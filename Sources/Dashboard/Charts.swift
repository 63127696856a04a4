import Foundation

/// Inline SVG charts that work without colour: each series has its own dash pattern and marker
/// shape, repeated in the legend; the chart names itself (`<title>`, `<desc>`) and its data sits
/// beside it in a table.
enum Chart {
    struct Series {
        var name: String
        /// The stylesheet's series name: error, warning, note, new, fixed.
        var kind: String
        var values: [Int]
    }

    static let width = 640.0, height = 260.0
    static let left = 48.0, right = 16.0, top = 16.0, bottom = 40.0
    /// Marker shapes by series index (dash patterns come from the stylesheet).
    static let markers = ["circle", "square", "triangle", "diamond"]

    static func line(id: String, title: String, description: String, labels: [String], series: [Series]) -> String {
        let count = labels.count
        let maximum = max(1, series.flatMap(\.values).max() ?? 0)
        let niceMaximum = niceCeiling(maximum)
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        func x(_ index: Int) -> Double { count <= 1 ? left + plotWidth / 2 : left + plotWidth * Double(index) / Double(count - 1) }
        func y(_ value: Int) -> Double { top + plotHeight * (1 - Double(value) / Double(niceMaximum)) }

        var svg = "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-labelledby=\"\(id)-title \(id)-desc\">"
        svg += "<title id=\"\(id)-title\">\(HTML.escape(title))</title><desc id=\"\(id)-desc\">\(HTML.escape(description))</desc>"
        // Axes and gridlines with labelled ticks.
        for step in 0...4 {
            let value = niceMaximum * step / 4
            let position = y(value)
            svg += "<line class=\"gridline\" x1=\"\(fmt(left))\" y1=\"\(fmt(position))\" x2=\"\(fmt(width - right))\" y2=\"\(fmt(position))\"/>"
            svg += "<text x=\"\(fmt(left - 6))\" y=\"\(fmt(position + 4))\" text-anchor=\"end\">\(HTML.number(value))</text>"
        }
        svg += "<g class=\"axis\"><line x1=\"\(fmt(left))\" y1=\"\(fmt(top + plotHeight))\" x2=\"\(fmt(width - right))\" y2=\"\(fmt(top + plotHeight))\"/>"
        svg += "<line x1=\"\(fmt(left))\" y1=\"\(fmt(top))\" x2=\"\(fmt(left))\" y2=\"\(fmt(top + plotHeight))\"/></g>"
        for index in tickIndexes(count) {
            // The first and last labels sit inside the plot's edges: centred, half of each fell
            // outside the chart.
            let anchor = count > 1 && index == 0 ? "start" : count > 1 && index == count - 1 ? "end" : "middle"
            svg += "<text x=\"\(fmt(x(index)))\" y=\"\(fmt(height - bottom + 18))\" text-anchor=\"\(anchor)\">\(HTML.escape(labels[index]))</text>"
        }
        svg += "<text x=\"\(fmt(left + plotWidth / 2))\" y=\"\(fmt(height - 4))\" text-anchor=\"middle\">Night</text>"
        for (index, series) in series.enumerated() {
            let style = index % markers.count
            let points = series.values.enumerated().map { "\(fmt(x($0.offset))),\(fmt(y($0.element)))" }.joined(separator: " ")
            // The stylesheet gives each series its colour and dash pattern; markers differ in shape.
            svg += "<polyline class=\"series series--\(series.kind)\" points=\"\(points)\"/>"
            let every = max(1, count / 31)
            for (point, value) in series.values.enumerated() where point % every == 0 || point == count - 1 {
                svg += marker(markers[style], kind: series.kind, x: x(point), y: y(value))
            }
        }
        svg += "</svg>"

        var legend = "<ul class=\"legend\" aria-label=\"Legend for \(HTML.escape(title))\">"
        for (index, series) in series.enumerated() {
            let style = index % markers.count
            legend += "<li><svg viewBox=\"0 0 36 12\" aria-hidden=\"true\" focusable=\"false\">"
            legend += "<line class=\"series series--\(series.kind)\" x1=\"2\" y1=\"6\" x2=\"34\" y2=\"6\"/>\(marker(markers[style], kind: series.kind, x: 18, y: 6))</svg> \(HTML.escape(series.name))</li>"
        }
        legend += "</ul>"

        var table = "<details class=\"chart-data\"><summary>Data table: \(HTML.breakable(title))</summary>"
        table += "<div class=\"table-wrap\"><table class=\"stack\"><caption>\(HTML.breakable(title))</caption><thead><tr><th scope=\"col\">Night</th>"
        for series in series { table += "<th scope=\"col\" class=\"number\">\(HTML.escape(series.name))</th>" }
        table += "</tr></thead><tbody>"
        for (index, label) in labels.enumerated() {
            table += "<tr><th scope=\"row\">\(HTML.escape(label))</th>"
            for series in series {
                table += "<td class=\"number\" data-label=\"\(HTML.escape(series.name))\">\(HTML.number(index < series.values.count ? series.values[index] : 0))</td>"
            }
            table += "</tr>"
        }
        table += "</tbody></table></div></details>"
        return "<figure class=\"chart\">\(svg)\(legend)\(table)</figure>"
    }

    /// A small trend line for a table cell, scaled to its own range (a line from 402 to 405
    /// is not flat) with the range stated beside it and in its label.
    static func sparkline(_ values: [Int], label: String) -> String {
        guard values.count > 1, let low = values.min(), let high = values.max() else {
            return "<span>\(values.first.map(HTML.number) ?? "no data")</span>"
        }
        let span = Double(max(1, high - low))
        let points = values.enumerated().map { index, value in
            // A constant series is drawn through the middle.
            let y = high == low ? 12 : 22 - Double(value - low) / span * 20
            return "\(fmt(Double(index) * 100 / Double(values.count - 1))),\(fmt(y))"
        }.joined(separator: " ")
        let range = high == low ? "\(HTML.number(low)) throughout" : "\(HTML.number(low))–\(HTML.number(high))"
        return "<span class=\"sparkline-cell\"><svg class=\"sparkline\" viewBox=\"0 0 100 24\" role=\"img\" "
            + "aria-label=\"\(HTML.escape(label)) (range \(range))\"><polyline class=\"sparkline-line\" points=\"\(points)\"/></svg>"
            + "<span class=\"sparkline-range\" aria-hidden=\"true\">\(range)</span></span>"
    }

    private static func marker(_ shape: String, kind: String, x: Double, y: Double) -> String {
        let style = "class=\"marker marker--\(kind)\""
        switch shape {
        case "square": return "<rect \(style) x=\"\(fmt(x - 3.5))\" y=\"\(fmt(y - 3.5))\" width=\"7\" height=\"7\"/>"
        case "triangle": return "<polygon \(style) points=\"\(fmt(x)),\(fmt(y - 4.5)) \(fmt(x + 4.5)),\(fmt(y + 3.5)) \(fmt(x - 4.5)),\(fmt(y + 3.5))\"/>"
        case "diamond": return "<polygon \(style) points=\"\(fmt(x)),\(fmt(y - 5)) \(fmt(x + 5)),\(fmt(y)) \(fmt(x)),\(fmt(y + 5)) \(fmt(x - 5)),\(fmt(y))\"/>"
        default: return "<circle \(style) cx=\"\(fmt(x))\" cy=\"\(fmt(y))\" r=\"3.5\"/>"
        }
    }

    private static func tickIndexes(_ count: Int) -> [Int] {
        guard count > 0 else { return [] }
        if count <= 4 { return Array(0..<count) }
        return Array(Set([0, count / 3, 2 * count / 3, count - 1])).sorted()
    }

    static func niceCeiling(_ value: Int) -> Int {
        guard value > 4 else { return 4 }
        let magnitude = Int(pow(10, floor(log10(Double(value)))))
        for factor in [1, 2, 4, 5, 10] where factor * magnitude >= value && (factor * magnitude) % 4 == 0 { return factor * magnitude }
        return ((value + 3) / 4) * 4
    }

    /// One decimal, as `%.1f` prints it (String(format:) per coordinate was a tenth of a render).
    static func fmt(_ value: Double) -> String {
        guard value.isFinite else { return "0.0" }
        let tenths = Int((value * 10).rounded())
        let magnitude = tenths.magnitude
        return (tenths < 0 ? "-" : "") + "\(magnitude / 10).\(magnitude % 10)"
    }
}
