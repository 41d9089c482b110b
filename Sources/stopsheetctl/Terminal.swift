import Glibc

/// What stopsheetctl knows about where its output goes.
enum Terminal {
    /// Columns to wrap at: `$COLUMNS` when set to a number (a user's explicit choice, and what
    /// tests use), else the width of the terminal on stdout, else 80 (a pipe or a file).
    static func width(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> Int {
        if let columns = environment("COLUMNS").flatMap({ Int($0) }), columns > 0 { return columns }
        var size = winsize()
        if isatty(1) == 1, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
