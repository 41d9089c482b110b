import StopSheetCore

/// The help text, made from the command table so it cannot leave a command out. Wrapped to the
/// width as every other output is, but never wider than 80: help is read, not scanned.
enum Usage {
    private static var width: Int { min(Terminal.width(), 80) }

    static var text: String {
        var page = Page(width: width)
        page.paragraph("Usage: stopsheetctl [--socket PATH | --instance NAME] [--timeout SECONDS] [--json] COMMAND ...", hangingIndent: 7)
        page.blank()
        page.paragraph("Commands:")
        // `  name operands   summary`: one line per command where it fits (bash completion reads
        // the command names from the lines that start with two spaces and a word).
        for command in Command.all {
            page.paragraph("\(command.summary)", indent: 2, hangingIndent: 40, lead: TerminalText(command.synopsis.padding(to: 37)))
        }
        page.blank()
        page.paragraph("Options:")
        for option in Command.globalOptions { describe(option, into: &page) }
        for command in Command.all {
            for option in command.options { describe(option, command: command.name, into: &page) }
        }
        page.blank()
        page.paragraph("Output is text for people, wrapped to $COLUMNS or the terminal's width; with --json it is the bare result, or {\"code\", \"message\", \"data\"} on failure (code null when the daemon did not answer).")
        page.blank()
        page.paragraph("Exit status: \(Int(ExitStatus.success)) success, \(Int(ExitStatus.daemonError)) the daemon answered with an error, \(Int(ExitStatus.usage)) usage error, \(Int(ExitStatus.unreachable)) the daemon could not be reached, \(Int(ExitStatus.notReady)) health is not ready, or wait timed out.")
        return page.text
    }

    static func text(for command: Command) -> String {
        var page = Page(width: width)
        page.paragraph("Usage: stopsheetctl [OPTIONS] \(command.synopsis)", hangingIndent: 7)
        page.paragraph("\(command.summary)", indent: 2)
        for option in command.options { describe(option, into: &page) }
        return page.text
    }

    static func unknownCommand(_ name: String) -> String {
        let guess = Hints.closest(to: name, among: Command.all.map(\.name)).map { "; did you mean '\($0)'?" } ?? " (see stopsheetctl help)"
        return "unknown command '\(name)'\(guess)"
    }

    private static func describe(_ option: Option, command: String? = nil, into page: inout Page) {
        let scope = command.map { "(\($0)) " } ?? ""
        page.paragraph("\(scope)\(option.summary)", indent: 2, hangingIndent: 21, lead: TerminalText(option.synopsis.padding(to: 18)))
    }
}

extension String {
    /// Padded with spaces to `columns` display columns (never cut).
    func padding(to columns: Int) -> String {
        self + String(repeating: " ", count: max(0, columns - Page.displayWidth(self)))
    }
}
