import CLibXML2
import StopSheetCore

/// XML upstream bodies (SIRI-FM) read with libxml2 into the core's plain `MarkupElement`s.
///
/// A hostile body is a clear failure, never work or memory out of proportion to its size:
/// - any `<!DOCTYPE` is refused before libxml2 sees the body, so no entity is declared and none
///   expanded (billion laughs) or fetched (external entities); the parsed document is checked
///   again for an internal or external subset, and an entity reference is refused;
/// - no network (`XML_PARSE_NONET`), no entity substitution, no DTD loading, libxml2's own
///   limits kept (no `XML_PARSE_HUGE`); the body is read as UTF-8 whatever it declares;
/// - nesting deeper than `DecodingLimits.maxDepth` and more than `maxElements` elements are refused.
enum MarkupReader {
    static let maxElements = 2_000_000

    private static let initialised: Bool = {
        xmlInitParser()
        return true
    }()

    /// `maxElements` is the cap, lowered only by tests (two million elements take seconds).
    static func read(_ bytes: [UInt8], limits: DecodingLimits = .init(), maxElements: Int = MarkupReader.maxElements) throws(DecodingFailure) -> MarkupElement {
        if contains(bytes, "<!DOCTYPE") {
            throw .invalidXML("a document type declaration (DTD) is refused")
        }
        guard bytes.count <= Int(Int32.max) else { throw .invalidXML("body too large") }
        _ = initialised
        guard let context = xmlNewParserCtxt() else { throw .invalidXML("out of memory") }
        defer { xmlFreeParserCtxt(context) }
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { base in
                xmlCtxtReadMemory(context, base, Int32(buffer.count), nil, "UTF-8", clibxml2_safe_options())
            }
        }
        guard let document = parsed else { throw .invalidXML(lastError(context)) }
        defer { xmlFreeDoc(document) }
        guard document.pointee.intSubset == nil, document.pointee.extSubset == nil else {
            throw .invalidXML("a document type declaration (DTD) is refused")
        }
        guard let root = xmlDocGetRootElement(document) else { throw .invalidXML("no root element") }
        var count = 0
        return try element(root, depth: 1, limits: limits, maxElements: maxElements, count: &count)
    }

    /// Whether `text` occurs in `bytes`, scanned in place: the generic search took a third of a
    /// 2 MB body's read.
    private static func contains(_ bytes: [UInt8], _ text: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        return bytes.withUnsafeBufferPointer { body in
            guard let first = pattern.first, body.count >= pattern.count else { return false }
            var index = 0
            let last = body.count - pattern.count
            while index <= last {
                if body[index] == first {
                    var matched = 1
                    while matched < pattern.count, body[index + matched] == pattern[matched] { matched += 1 }
                    if matched == pattern.count { return true }
                }
                index += 1
            }
            return false
        }
    }

    private static func element(_ node: xmlNodePtr, depth: Int, limits: DecodingLimits, maxElements: Int, count: inout Int) throws(DecodingFailure) -> MarkupElement {
        guard depth <= limits.maxDepth else { throw .invalidXML("elements nested deeper than \(limits.maxDepth)") }
        count += 1
        guard count <= maxElements else { throw .invalidXML("more than \(maxElements) elements") }
        var result = MarkupElement(name: String(cString: node.pointee.name))
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                result.children.append(try element(current, depth: depth + 1, limits: limits, maxElements: maxElements, count: &count))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { result.text += String(cString: content) }
            case XML_ENTITY_REF_NODE, XML_ENTITY_NODE, XML_ENTITY_DECL, XML_DTD_NODE:
                throw .invalidXML("entity references are refused")
            default:
                break  // comments, processing instructions
            }
            child = current.pointee.next
        }
        return result
    }

    private static func lastError(_ context: xmlParserCtxtPtr) -> String {
        guard let error = xmlCtxtGetLastError(context), let message = error.pointee.message else { return "malformed" }
        let text = String(cString: message).trimmingSuffix(while: \.isNewline)
        return "line \(error.pointee.line): \(text)"
    }
}

private extension String {
    func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var text = self
        while let last = text.last, predicate(last) { text.removeLast() }
        return text
    }
}
