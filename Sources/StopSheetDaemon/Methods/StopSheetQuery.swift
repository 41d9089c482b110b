import StopSheetCore
import StopSheetProtocol

/// `stopSheet`'s params, validated: what the general path reads from a params object and the
/// exact-bytes shortcut (`ExactRequest`) from a line, so that both answer through
/// `StopSheetService.stopSheet(_:)` and every rule about these params is written here once.
/// A value, made and used on the loop thread within one request.
struct StopSheetQuery: Equatable {
    var stopID: String
    var stopType = StopType.default
    var stationName: String?

    static let maxStopIDBytes = RPCType.maxStopIDBytes

    /// A stop id given as a string: non-empty, at most `maxStopIDBytes` bytes.
    static func isStopID(_ text: String) -> Bool { !text.isEmpty && text.utf8.count <= maxStopIDBytes }

    /// The shortcut's query: a stop id alone, every other param at its default. Inlined into the
    /// fast path: the call would cost more than the check.
    @inline(__always)
    init(stopID: String) throws(RPCError) {
        guard Self.isStopID(stopID) else { throw Params.notAStopID(ParamName.stopId) }
        self.stopID = stopID
    }

    init(_ params: JSON?) throws(RPCError) {
        let params = try Params(params, of: .stopSheet)
        stopID = try params.stopID()!
        stopType = try params.oneOf(ParamName.stopType, default: StopType.default)
        stationName = try params.string(ParamName.stationName)
    }
}
