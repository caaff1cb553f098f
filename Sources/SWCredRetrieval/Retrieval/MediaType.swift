/// Media-type helpers for the Content-Type rule (AD-4.7).
enum MediaType {
    /// The essence of a media type: the part before any `;`, without surrounding spaces or tabs,
    /// lowercased (`Application/JSON; charset=utf-8` → `application/json`).
    static func essence(of value: String) -> String {
        var head = (value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")[...]
        while let first = head.first, first == " " || first == "\t" { head = head.dropFirst() }
        while let last = head.last, last == " " || last == "\t" { head = head.dropLast() }
        return head.lowercased()
    }
}
