import StopSheetProtocol

/// Requests per method and error answers per code, for `stats`. The keys are fixed when the
/// server is made — the dispatcher's registered methods plus one `unknown` bucket, the
/// documented error codes plus one `other` bucket — so a client's strings never become keys and
/// the table's size does not depend on what anyone sends.
///
/// Written only on the serving loop (sessions and their line answers); read from anywhere.
final class RequestCounters: Sendable {
    /// protocol.md's error table, in its order.
    static let documentedCodes = ErrorCode.allCases.map(\.rawValue)

    private let byMethod: [String: Counter]
    private let unknownMethod = Counter()
    private let byCode: [Int: Counter]
    private let otherCode = Counter()
    /// The exact-bytes shortcut's method, looked up once, so its lines count without a lookup.
    let exactMethod: Counter

    init(_ dispatcher: Dispatcher) {
        byMethod = Dictionary(uniqueKeysWithValues: dispatcher.methods.map { ($0, Counter()) })
        byCode = Dictionary(uniqueKeysWithValues: Self.documentedCodes.map { ($0, Counter()) })
        exactMethod = dispatcher.exact.flatMap { [byMethod] in byMethod[$0.request.method] } ?? Counter()
    }

    func countRequest(method: String) { (byMethod[method] ?? unknownMethod).add() }

    func countError(code: Int) { (byCode[code] ?? otherCode).add() }

    /// Every registered method by name, then `unknown`.
    var requests: [(method: String, count: Int)] {
        byMethod.keys.sorted().map { ($0, byMethod[$0]!.count) } + [(Answer.Stats.unknownMethod, unknownMethod.count)]
    }

    /// Every documented code in protocol.md's order, then `other` (code nil).
    var errors: [(code: Int?, count: Int)] {
        Self.documentedCodes.map { ($0, byCode[$0]!.count) } + [(nil, otherCode.count)]
    }
}
