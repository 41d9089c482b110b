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
            return "the socket is for its group: join it (usermod -aG stopsheet $USER, then log in again) or use sudo"
        default:
            return nil
        }
    }

    static func after(_ error: ClientError, invocation: Invocation) -> String? {
        guard case .rpc(let rpc) = error else { return nil }
        let command = invocation.arguments.command ?? ""
        switch rpc.known {
        case .unknownStop:
            // CTA train ids are 5 digits: 3xxxx platforms, 4xxxx stations; bus stop ids are not.
            guard let stopID = invocation.operands.first, !isTrainStopID(stopID) else { return nil }
            return command == "sheet"
                ? "is this a bus stop? try --bus: stopsheetctl sheet --bus \(stopID)"
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
        let best = names.map { ($0, distance(typed.lowercased(), $0)) }.min { $0.1 < $1.1 }
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
