import CICU

/// Unicode collation in one language, through ICU's C API (CLDR's rules: `Č` after `C` in Czech,
/// canonically equivalent spellings equal). The daemon's one use of ICU; Foundation, which would
/// bring its own ICU, is not linked (13 MiB of the idle daemon's memory).
///
/// Threads: one at a time (ICU's `UCollator` is not for concurrent use); each station load makes
/// its own on the thread that installs it.
final class Collator {
    private let collator: OpaquePointer?

    /// `language`: a BCP 47 tag or ICU locale id (`cs`, `pt-BR`); nil or empty is the root
    /// collation, as is a language ICU does not know. Without ICU's data, byte order.
    init(language: String?) {
        collator = cicu_open(language ?? "")
    }

    deinit {
        if let collator { cicu_close(collator) }
    }

    /// Negative, zero or positive as `a` sorts before, with or after `b`.
    func compare(_ a: String, _ b: String) -> Int {
        guard let collator else { return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : (a.utf8.elementsEqual(b.utf8) ? 0 : 1) }
        // Native strings are contiguous UTF-8: the lengths keep any NUL inside a name.
        return a.withCString { a8 in
            b.withCString { b8 in Int(cicu_compare_utf8(collator, a8, Int32(clamping: a.utf8.count), b8, Int32(clamping: b.utf8.count))) }
        }
    }
}
