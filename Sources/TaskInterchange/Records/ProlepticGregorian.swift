/// Day arithmetic in the proleptic Gregorian calendar, exact over any `Int64` range the archive needs.
///
/// Howard Hinnant's `days_from_civil` / `civil_from_days`, counted from 2001-01-01 (Core Data's reference date).
/// Year 0 is 1 BC, as in ISO 8601.
enum ProlepticGregorian {
    /// Days from 1970-01-01 to 2001-01-01: 31 years, 8 of them leap years.
    static let referenceDayFromUnixEpoch: Int64 = 11_323

    /// A calendar date.
    struct CivilDate: Equatable {
        /// The year; 0 is 1 BC, −1 is 2 BC.
        var year: Int64
        /// 1…12.
        var month: Int64
        /// 1…31.
        var day: Int64
    }

    /// Days since 2001-01-01 (negative before it) of a valid civil date.
    static func daysSinceReference(_ date: CivilDate) -> Int64 {
        let year = date.month <= 2 ? date.year - 1 : date.year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let monthFromMarch = date.month > 2 ? date.month - 3 : date.month + 9
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + date.day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468 - referenceDayFromUnixEpoch
    }

    /// The civil date `days` after 2001-01-01.
    static func civilDate(daysSinceReference days: Int64) -> CivilDate {
        let shifted = days + referenceDayFromUnixEpoch + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return CivilDate(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    /// 28…31.
    static func daysInMonth(_ month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2:
            let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            return isLeap ? 29 : 28
        case 4, 6, 9, 11:
            return 30
        default:
            return 31
        }
    }
}
