import StopSheetCore

extension JSON {
    /// A stop sheet (or anything holding one, like an answer) as protocol.md compares sheets over
    /// time: each `data` member without its caches' `ageSeconds`, which move every second, but
    /// with their `loaded` and `stale`. For tests that compare answers taken at different moments.
    var comparableSheet: JSON {
        switch self {
        case .object(let object):
            return .object(JSONObject(object.members.map { key, value in
                guard key == "data", case .object(let caches) = value else { return (key, value.comparableSheet) }
                return (key, .object(JSONObject(caches.members.map { cache, freshness in
                    guard case .object(let fields) = freshness else { return (cache, freshness) }
                    return (cache, .object(JSONObject(fields.members.filter { $0.key != "ageSeconds" })))
                })))
            }))
        case .array(let elements):
            return .array(elements.map(\.comparableSheet))
        default:
            return self
        }
    }
}
