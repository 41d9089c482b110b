// expect: PreEncoded<Answer.Stations>' to expected argument type
// A handler of `station` answering with `stations`' result.
import StopSheetProtocol
@testable import StopSheetDaemon

func handlers(_ dispatcher: inout Dispatcher, _ service: StopSheetService) {
    dispatcher.register(Methods.Station.self) { _, _ in .of { () throws(RPCError) in try service.stations() } }
}
