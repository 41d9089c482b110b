import StopSheetCore
import StopSheetProtocol

/// `stopSheet`'s params as the service reads them: from the general path's decoded params
/// (`Methods.StopSheet.Params`) or from the exact-bytes shortcut's one value (`ExactRequest`),
/// so that both answer through `StopSheetService.stopSheet(_:)`, and both check a stop id by
/// `StopID`'s one rule. A value, made and used on the loop thread within one request.
struct StopSheetQuery: Equatable {
    var stopID: String
    var stopType = StopType.default
    var stationName: String?

    /// The shortcut's query: a stop id alone, every other param at its default, checked as
    /// `StopID.param` checks a string. Inlined into the fast path: the call would cost more than
    /// the check.
    @inline(__always)
    init(stopID: String) throws(RPCError) {
        guard StopID.limit.admits(stopID) else { throw StopID.mismatch(Methods.StopSheet.Params.CodingKeys.stopId.stringValue) }
        self.stopID = stopID
    }

    init(_ params: Methods.StopSheet.Params) {
        stopID = params.stopId.text
        stopType = params.stopType ?? .default
        stationName = params.stationName?.text
    }
}
