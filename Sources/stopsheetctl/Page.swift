/// A page of output being laid out: paragraphs wrapped at word boundaries to `width` columns,
/// each with its own indent. Lines hold only `TerminalText`, so nothing raw gets onto the page.
struct Page {
    let width: Int
    private(set) var lines: [String] = []

    init(width: Int) { self.width = max(width, 20) }

    var text: String { lines.map { $0 + "\n" }.joined() }

    mutating func blank() {
        if let last = lines.last, !last.isEmpty { lines.append("") }
    }

    /// One paragraph: `text` wrapped to the width, its first line at `indent` columns and the
    /// others at `hangingIndent` (by default the same).
    /// `lead`, if given, is kept whole, padding included: a column that the text follows.
    mutating func paragraph(_ text: TerminalText, indent: Int = 0, hangingIndent: Int? = nil, lead: TerminalText? = nil) {
        words((lead.map { [$0] } ?? []) + Page.words(text), indent: indent, hangingIndent: hangingIndent)
    }

    /// A link on a line of its own, never cut: a link cut in two is no link. A terminal
    /// narrower than it wraps it, and still finds the whole of it when clicked or copied.
    /// One that fits only unindented goes to the margin (CTA's alert links are 80 columns).
    mutating func link(_ url: TerminalText, indent: Int = 0) {
        let fits = indent + Page.displayWidth(url.description) <= width
        lines.append(String(repeating: " ", count: fits ? indent : 0) + url.description)
    }

    /// One line, never wrapped: cut with `…` where it would run past the width (a list of
    /// what changed, each item a line, reads better cut than wrapped).
    mutating func line(_ text: TerminalText, indent: Int = 0) {
        let room = max(width - indent, 2)
        var body = text.description
        if Page.displayWidth(body) > room { body = Page.split(body, columns: room - 1).0 + "…" }
        lines.append(String(repeating: " ", count: indent) + body)
    }

    static func words(_ text: TerminalText) -> [TerminalText] {
        text.description.split(separator: " ").map { TerminalText(String($0)) }
    }

    /// Untrusted text whose newlines mean something (a description): one paragraph per line,
    /// empty lines kept between them; a `\r` before a newline is part of the newline.
    mutating func paragraphs(_ untrusted: String, indent: Int = 0) {
        var current = String.UnicodeScalarView()
        var pieces: [String] = []
        for scalar in untrusted.unicodeScalars {
            if scalar == "\n" {
                if current.last == "\r" { current.removeLast() }
                pieces.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        pieces.append(String(current))
        let blank = { (piece: String) in piece.allSatisfy { $0 == " " } }
        while let first = pieces.first, blank(first) { pieces.removeFirst() }
        while let last = pieces.last, blank(last) { pieces.removeLast() }
        for piece in pieces {
            if blank(piece) { lines.append("") } else { paragraph(TerminalText(piece), indent: indent) }
        }
    }

    /// Like `paragraph`, but breaks only between `words` (each kept whole unless it is wider
    /// than a line): `Purple Line Express` stays on one line.
    mutating func words(_ words: [TerminalText], indent: Int = 0, hangingIndent: Int? = nil) {
        let hanging = hangingIndent ?? indent
        var line = String(repeating: " ", count: indent)
        var column = indent
        var lineIndent = indent
        var startedLine = false
        for word in words where !word.isEmpty {
            var piece = word.description
            var pieceWidth = Page.displayWidth(piece)
            if startedLine && column + 1 + pieceWidth <= width {
                line += " " + piece
                column += 1 + pieceWidth
                continue
            }
            if startedLine {
                lines.append(line)
                line = String(repeating: " ", count: hanging)
                column = hanging
                lineIndent = hanging
            }
            // A word wider than the line is cut where the line ends.
            while lineIndent + pieceWidth > width {
                let (head, rest) = Page.split(piece, columns: max(width - lineIndent, 1))
                lines.append(line + head)
                line = String(repeating: " ", count: hanging)
                column = hanging
                lineIndent = hanging
                piece = rest
                pieceWidth = Page.displayWidth(piece)
            }
            line += piece
            column += pieceWidth
            startedLine = true
        }
        if startedLine { lines.append(line) }
    }

    /// Columns a terminal gives `text` (printable text only, as `TerminalText` makes it):
    /// combining marks take none, East Asian wide and fullwidth characters two.
    static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
    }

    static func width(of scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return 0
        default: break
        }
        switch scalar.value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x267F, 0x2E80...0x303E, 0x3041...0x33FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF,
             0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF,
             0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// `text` cut after at most `columns` columns, between characters (a combining mark stays
    /// with its base); the head is never empty.
    static func split(_ text: String, columns: Int) -> (String, String) {
        var head = ""
        var used = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let characterWidth = displayWidth(String(character))
            if used + characterWidth > columns && !head.isEmpty { break }
            head.append(character)
            used += characterWidth
            index = text.index(after: index)
        }
        return (head, String(text[index...]))
    }
}
