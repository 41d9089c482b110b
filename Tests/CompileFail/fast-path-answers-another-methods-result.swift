// expect: PreEncoded<Answer.Station>' to expected argument type
// The `stopSheet` shortcut answering with `station`'s result.
import StopSheetProtocol
@testable import StopSheetDaemon

func handlers(_ dispatcher: inout Dispatcher, _ service: StopSheetService) {
    dispatcher.registerExact(Methods.StopSheet.self, param: .stopId) { stopID, _ in .of { () throws(RPCError) in try service.station(stopID) } }
}
