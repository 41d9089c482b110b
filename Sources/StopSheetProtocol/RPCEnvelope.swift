/// JSON-RPC 2.0's own member names, around every request, answer and notification: the client
/// reads and writes them by these (the daemon's writer spells them as literals of its fast path,
/// `JSONKey`).
public enum RPCEnvelope {
    public static let jsonrpc = "jsonrpc"
    public static let version = "2.0"
    public static let id = "id"
    public static let method = "method"
    public static let params = "params"
    public static let result = "result"
    public static let error = "error"
    /// The error object's members.
    public static let code = "code"
    public static let message = "message"
    public static let data = "data"
}
