import Glibc
import StopSheetClient

/// Guesses at what went wrong, printed after an error as `hint: …`.
enum Hints {
    static func unreachable(_ error: ClientError, socketPath: String) -> String? {
        guard case .cannotConnect(_, let errno) = error else { return nil }
        switch errno.code {
        case ENOENT, ECONNREFUSED:
            return "is stopsheetd running? This looked for it at \(socketPath) (--socket, $STOPSHEETD_SOCKET)"
        case EACCES, EPERM:
            let group = socketGroup(socketPath).map { "its group \($0): join it (usermod -aG \($0) $USER, then log in again)" } ?? "its group: join it"
            return "the socket is for \(group) or use sudo"
        default:
            return nil
        }
    }

    /// The group that owns the socket, by name (by number when it has none); nil when it cannot
    /// be seen.
    private static func socketGroup(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        guard let group = getgrgid(info.st_gid), let name = group.pointee.gr_name else { return String(info.st_gid) }
        return String(cString: name)
    }

    static func after(_ error: ClientError, invocation: Invocation, client: StopSheetClient) -> String? {
        guard case .rpc(let rpc) = error else { return nil }
        let command = invocation.arguments.command ?? ""
        switch rpc.known {
        case .methodNotFound:
            // The daemon's own method names are the keys of its request counters.
            guard let method = rpc.data?.stringValue, let stats = try? client.stats().value else { return nil }
            let methods = stats.requests.keys.filter { $0 != Answer.Stats.unknownMethod }.sorted()
            return closest(to: method, among: methods).map { "did you mean '\($0)'? (method names are case-sensitive)" }
        case .unknownStop:
            // `call`'s operands are a method and JSON, not a stop id.
            guard command != "call", let stopID = invocation.operands.first else { return nil }
            guard StationLookup.isStopIDShaped(stopID) else { return StationLookup.didYouMean(stopID, client: client, command: command) }
            // CTA train ids are 5 digits: 3xxxx platforms, 4xxxx stations; bus stop ids are not.
            guard !isTrainStopID(stopID) else { return nil }
            return command == "sheet" || command == "watch"
                ? "is this a bus stop? try --bus: stopsheetctl \(command) --bus \(stopID)"
                : "is this a bus stop? Bus stops have no \(command == "station" ? "station detail" : "train alerts"); try stopsheetctl sheet --bus \(stopID)"
        case .notLoaded:
            return "the daemon has not loaded that data yet; stopsheetctl health says what it is waiting for"
        case .notPermitted:
            return "refresh is only for root and the daemon's own user"
        default:
            return nil
        }
    }

    static func isTrainStopID(_ text: String) -> Bool {
        let digits = Array(text.utf8)
        return digits.count == 5 && (digits[0] == UInt8(ascii: "3") || digits[0] == UInt8(ascii: "4"))
            && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The known name closest to a mistyped one (`staton` → `station`), if one is close.
    static func closest(to typed: String, among names: [String]) -> String? {
        let best = names.map { ($0, distance(typed.lowercased(), $0.lowercased())) }.min { $0.1 < $1.1 }
        guard let best, best.1 <= max(1, typed.count / 3) else { return nil }
        return best.0
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
