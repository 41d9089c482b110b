/// An XML element as plain values: its local name (namespace prefixes dropped), its own text
/// (the text nodes directly inside it, joined) and its child elements in order. The daemon's
/// XML reader (libxml2) builds these, so the core reads SIRI-FM without a parser of its own.
public struct MarkupElement: Hashable, Sendable {
    public var name: String
    public var text: String
    public var children: [MarkupElement]

    public init(name: String, text: String = "", children: [MarkupElement] = []) {
        self.name = name
        self.text = text
        self.children = children
    }

    /// The first child named `name`.
    public func child(_ name: String) -> MarkupElement? { children.first { $0.name == name } }

    public func children(named name: String) -> [MarkupElement] { children.filter { $0.name == name } }

    /// The element at a path of child names, each the first of its name.
    public func descendant(_ path: String...) -> MarkupElement? {
        path.reduce(self as MarkupElement?) { $0?.child($1) }
    }
}
