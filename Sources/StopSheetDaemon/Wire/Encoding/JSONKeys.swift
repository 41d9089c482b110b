/// The JSON-RPC envelope's member names (`RPCResponse`, `RPCRequest`), each once. The answers'
/// own member names are the protocol's (`Answer`'s `CodingKeys`).
extension JSONKey {
    static let jsonrpc: JSONKey = "jsonrpc"
    static let id: JSONKey = "id"
    static let result: JSONKey = "result"
    static let error: JSONKey = "error"
    static let method: JSONKey = "method"
    static let params: JSONKey = "params"
}
