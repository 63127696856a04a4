import Foundation

/// A five-field cron expression (minute hour day-of-month month day-of-week) with lists, ranges,
/// steps, month and day names, and the `@daily`-style shorthands. As in Vixie cron, when both
/// day fields are restricted a day matches if either does.
public struct CronSchedule: Sendable, Equatable {
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let expression: String
        public let reason: String
        public var description: String { "cron expression \"\(expression)\": \(reason)" }
    }

    public let expression: String
    let minutes: Set<Int>
    let hours: Set<Int>
    let daysOfMonth: Set<Int>
    let months: Set<Int>
    let daysOfWeek: Set<Int>
    let dayOfMonthRestricted: Bool
    let dayOfWeekRestricted: Bool

    static let shorthands = [
        "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *", "@weekly": "0 0 * * 0",
        "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
    ]
    static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    public init(_ expression: String) throws {
        self.expression = expression
        let trimmed = expression.trimmingCharacters(in: .whitespaces)
        let expanded = Self.shorthands[trimmed.lowercased()] ?? trimmed
        let fields = expanded.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard fields.count == 5 else {
            throw ParseError(expression: expression, reason: "needs 5 fields (minute hour day-of-month month day-of-week), found \(fields.count)")
        }
        func parse(_ index: Int, _ name: String, _ range: ClosedRange<Int>, names: [String] = [], nameBase: Int = 0) throws -> Set<Int> {
            try Self.parseField(fields[index], name: name, range: range, names: names, nameBase: nameBase, expression: expression)
        }
        minutes = try parse(0, "minute", 0...59)
        hours = try parse(1, "hour", 0...23)
        daysOfMonth = try parse(2, "day of month", 1...31)
        months = try parse(3, "month", 1...12, names: Self.monthNames, nameBase: 1)
        // 7 is Sunday too.
        daysOfWeek = Set(try parse(4, "day of week", 0...7, names: Self.dayNames).map { $0 % 7 })
        dayOfMonthRestricted = fields[2] != "*" && !fields[2].hasPrefix("*/")
        dayOfWeekRestricted = fields[4] != "*" && !fields[4].hasPrefix("*/")
    }

    private static func parseField(_ field: String, name: String, range: ClosedRange<Int>, names: [String], nameBase: Int,
                                   expression: String) throws -> Set<Int> {
        func fail(_ reason: String) -> ParseError { ParseError(expression: expression, reason: "\(name) field \"\(field)\": \(reason)") }
        func value(_ text: Substring) throws -> Int {
            if let number = Int(text) {
                guard range.contains(number) else { throw fail("\(number) is outside \(range.lowerBound)-\(range.upperBound)") }
                return number
            }
            if let index = names.firstIndex(of: text.lowercased()) { return index + nameBase }
            throw fail("\"\(text)\" is not a number" + (names.isEmpty ? "" : " or a name"))
        }
        var result = Set<Int>()
        for part in field.split(separator: ",", omittingEmptySubsequences: false) {
            guard !part.isEmpty else { throw fail("empty list item") }
            let pieces = part.split(separator: "/", omittingEmptySubsequences: false)
            guard pieces.count <= 2 else { throw fail("more than one step in \"\(part)\"") }
            var step = 1
            if pieces.count == 2 {
                guard let parsed = Int(pieces[1]), parsed > 0 else { throw fail("step \"\(pieces[1])\" must be a positive integer") }
                step = parsed
            }
            let base = pieces[0]
            let lower: Int, upper: Int
            if base == "*" {
                lower = range.lowerBound; upper = range.upperBound
            } else if let dash = base.firstIndex(of: "-") {
                lower = try value(base[..<dash]); upper = try value(base[base.index(after: dash)...])
                guard lower <= upper else { throw fail("range \(base) runs backwards") }
            } else {
                lower = try value(base)
                upper = pieces.count == 2 ? range.upperBound : lower
            }
            result.formUnion(stride(from: lower, through: upper, by: step))
        }
        return result
    }

    /// The first time strictly after `date` that matches, in `timeZone`; nil if none within
    /// five years (an expression like `0 0 31 2 *`). A local time that does not exist (a
    /// daylight-saving gap) is skipped; one that exists twice fires at its first occurrence.
    public func nextFire(after date: Date, in timeZone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let sortedHours = hours.sorted(), sortedMinutes = minutes.sorted()
        guard var day = calendar.date(from: calendar.dateComponents([.year, .month, .day], from: date)) else { return nil }
        for _ in 0..<(366 * 5) {
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: day)
            if let year = parts.year, let month = parts.month, let dayOfMonth = parts.day, let weekday = parts.weekday,
               months.contains(month), matchesDay(dayOfMonth: dayOfMonth, weekday: weekday - 1) {
                for hour in sortedHours {
                    for minute in sortedMinutes {
                        let wanted = DateComponents(year: year, month: month, day: dayOfMonth, hour: hour, minute: minute)
                        guard let candidate = calendar.date(from: wanted), candidate > date else { continue }
                        let actual = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: candidate)
                        if actual.hour == hour, actual.minute == minute, actual.day == dayOfMonth { return candidate }
                    }
                }
            }
            guard let next = calendar.date(byAdding: .day, value: 1, to: day) else { return nil }
            day = calendar.startOfDay(for: next)
        }
        return nil
    }

    private func matchesDay(dayOfMonth: Int, weekday: Int) -> Bool {
        switch (dayOfMonthRestricted, dayOfWeekRestricted) {
        case (true, true): daysOfMonth.contains(dayOfMonth) || daysOfWeek.contains(weekday)
        case (true, false): daysOfMonth.contains(dayOfMonth)
        case (false, true): daysOfWeek.contains(weekday)
        case (false, false): daysOfMonth.contains(dayOfMonth) && daysOfWeek.contains(weekday)
        }
    }

    /// The calendar date (YYYY-MM-DD) of `date` in `timeZone`: a nightly run's key.
    public static func localDate(of date: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
